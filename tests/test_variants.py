"""RuleSet and CheckSet variants keep every promise docs/API.md ("A variant semantics") and
CONTRIBUTING.md make: `replace` changes one rule's declared fields and keeps its place,
`add` puts a rule last or right after another (which orders it among its site's matches),
`remove` takes one out, `with_sites` swaps one flag's site function; a CheckSet's `replace`
keeps the name and the order of `all`, `add`/`remove` change one check, `make` passes each
check only the options it takes; the default sets never change, and a run given a variant
runs the variant. Each by behaviour: a run, an order, an identity."""

from __future__ import annotations

import dataclasses

import pytest

import goi
from goi.semantics.checks import DEFAULT_CHECKS, CheckSet
from goi.semantics.rules import DEFAULT, RuleSet, using

PROGRAM = "let f @ p = {1} + 2 in f p"


def test_replace_changes_that_rule_alone_and_keeps_its_place():
    fold = DEFAULT["rw.op.fold"]
    variant = DEFAULT.replace("rw.op.keep", apply=fold.apply, summary="folds")
    assert list(variant) == list(DEFAULT)  # the same order
    assert variant["rw.op.keep"].apply is fold.apply and variant["rw.op.keep"].summary == "folds"
    assert DEFAULT["rw.op.keep"].apply is not fold.apply  # the default untouched
    assert all(variant[r] is DEFAULT[r] for r in DEFAULT if r != "rw.op.keep")
    assert variant.site_functions == DEFAULT.site_functions
    # and a run on it folds: the program's value no longer depends on the parameter's graph
    assert goi.run(PROGRAM, rules=variant, checks=["form"]).violation.check == "form"
    assert goi.run(PROGRAM, checks=["form"]).status == "final"


def test_replace_refuses_what_a_rule_does_not_declare():
    with pytest.raises(KeyError):
        DEFAULT.replace("no.such.rule", apply=print)
    with pytest.raises(TypeError):
        DEFAULT.replace("rw.beta", no_such_field=1)


def test_add_puts_a_rule_last_or_right_after_another():
    beta = DEFAULT["rw.beta"]
    copy = dataclasses.replace(beta, id="rw.beta.copy")
    last = DEFAULT.add(copy)
    assert list(last) == list(DEFAULT) + ["rw.beta.copy"]
    after = DEFAULT.add(copy, after="rw.beta")
    ids = list(after)
    assert ids.index("rw.beta.copy") == ids.index("rw.beta") + 1 and len(ids) == len(DEFAULT) + 1
    assert [r for r in ids if r != "rw.beta.copy"] == list(DEFAULT)
    with pytest.raises(ValueError, match="declared twice"):
        DEFAULT.add(beta)
    with pytest.raises(TypeError):
        DEFAULT.add("rw.beta")


def test_a_rule_added_before_another_of_its_site_wins_the_match():
    """add(after=…) orders a rule among the matches of its site: placed before rw.beta, a copy
    that does what rw.beta does fires in its place, every time rw.beta would have."""
    beta = DEFAULT["rw.beta"]
    first = DEFAULT.remove("rw.beta").add(dataclasses.replace(beta, id="rw.beta.first"))
    order = list(DEFAULT)
    before = order[order.index("rw.beta") - 1]
    placed = DEFAULT.add(dataclasses.replace(beta, id="rw.beta.first"), after=before)
    program = "(λx. x + 1) 2"
    plain = goi.run(program)
    for variant in (first, placed):
        result = goi.run(program, rules=variant)
        assert result.value == plain.value and result.transitions == plain.transitions
        assert result.rules.get("rw.beta.first") == plain.rules["rw.beta"] >= 1 and not result.rules.get("rw.beta")


def test_remove_takes_one_rule_out():
    variant = DEFAULT.remove("deep.decouple")
    assert list(variant) == [r for r in DEFAULT if r != "deep.decouple"]
    assert goi.run("let f @ p = {1} in f p", rules=variant).status == "stuck"
    with pytest.raises(KeyError):
        variant.remove("deep.decouple")


def test_with_sites_swaps_one_flags_site_function():
    flag, (fn, many) = next(iter(DEFAULT.site_functions.items()))
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return fn(*args, **kwargs)

    variant = DEFAULT.with_sites(flag, counting, many)
    assert variant.site_functions[flag] == (counting, many) and DEFAULT.site_functions[flag] == (fn, many)
    assert {k: v for k, v in variant.site_functions.items() if k != flag} == \
        {k: v for k, v in DEFAULT.site_functions.items() if k != flag}
    plain = goi.run("let f @ p = {1} in (λx. x * 2) (f p)")
    again = goi.run("let f @ p = {1} in (λx. x * 2) (f p)", rules=variant)
    assert (again.value, again.transitions) == (plain.value, plain.transitions) and calls


def test_using_scopes_a_variant_and_restores_the_default():
    variant = DEFAULT.remove("deep.decouple")
    with using(variant):
        assert goi.run("let f @ p = {1} in f p").status == "stuck"
        with using(DEFAULT):
            assert goi.run("let f @ p = {1} in f p").status == "final"
        assert goi.run("let f @ p = {1} in f p").status == "stuck"
    assert goi.run("let f @ p = {1} in f p").status == "final"
    with pytest.raises(TypeError):
        with using({"rw.beta": None}):
            pass


def test_rule_sets_are_values_with_their_own_identity():
    assert DEFAULT == DEFAULT and DEFAULT.remove("rw.beta") != DEFAULT.remove("rw.beta")
    assert isinstance(DEFAULT.replace("rw.beta", summary="x"), RuleSet)
    with pytest.raises(AttributeError):
        DEFAULT.anything = 1


# ---- checks --------------------------------------------------------------------------------

class Never:
    """A check that holds everywhere (a stand-in for a replaced one)."""

    order = 0
    options = ()
    declared = True

    def __init__(self):
        self.seen = 0

    def __getattr__(self, name):  # every hook of a check: does nothing
        return lambda *args, **kwargs: None


def stand_in(name: str, order: int):
    base = DEFAULT_CHECKS[name]
    return type(f"StandIn_{name}", (base,), {"name": name, "order": order, "check": lambda self, *a, **k: None,
                                               "__module__": __name__})


def test_checkset_replace_keeps_the_name_and_the_order_of_all():
    replaced = DEFAULT_CHECKS.replace("form", stand_in("form", DEFAULT_CHECKS["form"].order))
    assert list(replaced) == list(DEFAULT_CHECKS) and replaced["form"] is not DEFAULT_CHECKS["form"]
    assert all(replaced[n] is DEFAULT_CHECKS[n] for n in DEFAULT_CHECKS if n != "form")
    with pytest.raises(KeyError):
        DEFAULT_CHECKS.replace("no-such-check", stand_in("form", 1))


def test_checkset_add_and_remove_change_one_check():
    removed = DEFAULT_CHECKS.remove("gc")
    assert list(removed) == [n for n in DEFAULT_CHECKS if n != "gc"] and "gc" in DEFAULT_CHECKS
    again = removed.add(DEFAULT_CHECKS["gc"])
    assert list(again) == list(DEFAULT_CHECKS)  # back in its place: the order of `all` is the checks' order
    with pytest.raises(ValueError, match="declared twice"):
        DEFAULT_CHECKS.add(DEFAULT_CHECKS["gc"])
    assert [type(c).__name__ for c in removed.make(["all"])] == [DEFAULT_CHECKS[n].__name__ for n in removed]


def test_checkset_make_gives_each_check_only_the_options_it_takes():
    made = {type(c).name: c for c in DEFAULT_CHECKS.make(["all"], check_mode="sampled", determinism_paths=3,
                                                         stability_mode="sampled")}
    assert set(made) == set(DEFAULT_CHECKS)
    assert made["determinism"].limit == 3 and made["determinism"].mode == "sampled"  # the options it takes
    graph_checks = [c for c in made.values() if hasattr(c, "policy")]
    assert graph_checks and all(c.policy.mode == "sampled" for c in graph_checks)
    default = {type(c).name: c for c in DEFAULT_CHECKS.make(["all"])}
    assert default["determinism"].limit == 24 and all(c.policy.mode == "exhaustive" for c in default.values()
                                                      if hasattr(c, "policy"))
    with pytest.raises(ValueError, match="unknown check"):
        DEFAULT_CHECKS.make(["form", "nope"])


def test_a_run_given_a_check_set_runs_its_checks():
    """The variant of docs/API.md trips `form`; with `form` removed from the check set given
    to the run, the same variant runs to its end unwatched by it."""
    variant = DEFAULT.replace("rw.op.keep", apply=DEFAULT["rw.op.fold"].apply)
    assert goi.run(PROGRAM, rules=variant, checks=["form"]).violation.check == "form"
    without = DEFAULT_CHECKS.replace("form", stand_in("form", DEFAULT_CHECKS["form"].order))
    assert goi.run(PROGRAM, rules=variant, checks=["form"], check_set=without).violation is None
    with pytest.raises(ValueError, match="unknown check"):
        goi.run(PROGRAM, checks=["gc"], check_set=DEFAULT_CHECKS.remove("gc"))


def test_check_sets_are_values():
    assert isinstance(DEFAULT_CHECKS.remove("gc"), CheckSet) and DEFAULT_CHECKS.remove("gc") != DEFAULT_CHECKS.remove("gc")
    with pytest.raises(AttributeError):
        DEFAULT_CHECKS.anything = 1
