"""The catalogue of laws and conjectures and its engines (docs/CONJECTURES.md): `goi
conjectures` and `goi equiv --terms`. Not the paper's theorems (goi.properties): laws between
programs or terms, decided by goi.equivalence on generated or enumerated instances.

    conjectures       the catalogue (LAWS), a law's random instances and their verdicts
    exhaustive        a law on every instance up to a bound (goi conjectures --exhaustive)
    term_equivalence  open terms compared in contexts (goi equiv --terms)
    campaign          a law's instances as a campaign's shards (LawWork, law_shards)
"""
