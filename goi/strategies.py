"""Public Hypothesis strategies for the abductive calculus (docs/API.md).

Every term they draw is well typed by construction (no filtering):

- `programs(max_depth=4, decoupling=True, iterated=True)`: closed programs of type F;
- `terms(names, context, type_, max_depth=4)`: a term t with names | context | p⃗ ⊢ t : type_;
- `pairs(type_=F, max_depth=3)`: two closed terms of one type;
- `contexts(type_=F, max_depth=3)`: a context C[□ : type_] of type F, as (plug, shape);
- `split_graphs(max_depth=4)`: (term, judgement, graph) with contractions split.

Use them in your own tests:

    from hypothesis import given
    import goi

    @given(goi.strategies.programs())
    def test_my_implementation_agrees(term):
        expected = goi.run(term)
        ...
"""

from .generators.graphs import split_graphs
from .generators.typed import contexts, pairs, programs, terms

__all__ = ["contexts", "pairs", "programs", "split_graphs", "terms"]
