"""The example programs of the paper (paper/) and of the authors' on-line visualiser
(visualiser/), installed as the data package goi.corpus: goi oracle runs them first."""
