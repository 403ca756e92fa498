"""A printer of the tests' own (goi oracle --printer): the paper's notation written backwards,
which goi's parser cannot read — so the oracle must keep each text's term itself."""

from goi.semantics.pretty import pretty


def show(term) -> str:
    return "REVERSED:" + pretty(term)[::-1]
