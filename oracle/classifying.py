"""Oracle mode, one program (the Oracle's job of classifying): the program printed in the
target's notation (and read back), goi's expected outcome on that very text, the class of
the implementation's answer (oracle/classification.py)."""

from __future__ import annotations

import time
from typing import Optional


from goi import api
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError

from .notations import Inexpressible, ReadError

from .cases import Case
from .classification import BEYOND, OUTSIDE, klass


class Classifying:
    """Printing a program, goi's expected outcome, the class of an answer."""

    def text_of(self, term: S.Term, of_type=None) -> Optional[str]:
        """The program in the target's notation; None if it cannot be written there or our
        own front end does not accept what was written (annotations dropped). With `of_type`
        (a reduction's or a rewriting's candidate), also None unless it is well typed of that
        type (programs are closed terms of type F)."""
        c = self.config
        try:
            judgement = api.judge(term)
        except GoiError:
            judgement = None
            if not c.ill_typed or of_type is not None:
                return None
        if of_type is not None and judgement.type != of_type:
            return None
        if self.lacks.excludes(term, judgement.operators if judgement is not None else None):
            return None  # what the fragment leaves out and no generator setting removed: never sent
        if c.printer is not None:
            return self._printed(term)
        try:  # an ill-typed program (--ill-typed) has no types: its operators are written as they are
            printed = self.declared.print(term, judgement.operators if judgement is not None else None,
                                          self.lacks.annotations, c.parenthesize)
        except Inexpressible:
            return None
        self.terms[printed.text] = printed.term
        if judgement is not None and printed.term == term and printed.text not in self.expectations:
            self.judgements[printed.text] = judgement  # the same program: expected() need not type it again
        return printed.text

    def _printed(self, term: S.Term) -> Optional[str]:
        """The user's printer (--printer): its text, remembered with the term, since our own
        parser need not read it; Inexpressible from it skips the program. Anything else it raises
        (a ValueError included) is the printer's error, not a program it cannot write: a printer
        that fails on every program must not end a survey that tested nothing as a pass."""
        try:
            text = self.config.printer(term)
        except Inexpressible:
            return None
        if not isinstance(text, str):
            raise TypeError(f"the printer returned {type(text).__name__}, not the program's text")
        self.terms[text] = term
        return text

    def _term(self, text: str):
        """The term a text stands for: the one printed (by the notation, or the user's
        printer), else the text read by the notation (a replayed or saved program)."""
        if text in self.terms:
            return self.terms[text]
        if self.declared is None:  # --printer: a text it printed that this run did not (goi's parser reads it, or not)
            from goi.semantics.parser import parse

            return parse(text)
        return self.declared.read(text)

    def expected(self, text: str) -> tuple[object, int, dict, bool]:
        """Our outcome on the text: (value or "undefined", transitions, rules, well_typed)."""
        if text in self.expectations:
            return self.expectations[text]
        started = time.perf_counter()
        try:
            self.expectations[text] = self._expected(text)
            return self.expectations[text]
        finally:
            took = time.perf_counter() - started
            self.seconds["ours"] += took
            self.ours[text] = took

    def _expected(self, text: str) -> tuple[object, int, dict, bool]:
        try:
            judgement = self.judgements.pop(text, None) or api.judge(self._term(text))
        except GoiError as exc:
            return f"ill-typed: {exc.message}", 0, {}, False
        except ReadError as exc:
            return f"ill-typed: not a program of the notation: {exc}", 0, {}, False
        c, arithmetic = self.config, self.arithmetic
        field = arithmetic.field()
        budgets = dict(max_nodes=c.max_nodes, max_steps=c.max_steps)
        if field is None:
            result = api.run(judgement, division=arithmetic.division(), **budgets)
        else:
            try:
                result = api.run(judgement, field=field, **budgets)
            except ValueError as exc:  # a constant the arithmetic has no value for (an integer field's 0.5)
                return f"{OUTSIDE}{arithmetic.name} arithmetic: {exc}", 0, {}, False
        if result.status == "undefined":
            return "undefined", result.transitions, result.rules, True
        if result.status == "budget":  # goi cannot say what it means within its budgets: never sent
            return BEYOND, result.transitions, result.rules, True
        if result.status != "final":
            raise RuntimeError(f"our machine ended {result.status} on a well-typed program: {result.reason}\n{text}")
        return result.value, result.transitions, result.rules, True

    def classify(self, text: str, origin: str = "generated", timeout: Optional[float] = None) -> Case:
        """The case of a program: goi's outcome on the text, the implementation's answer (within
        `timeout`, default --timeout) and its class; each text asked once (the cache). A budget
        is the caller's (a Shrinker's `ask`)."""
        if text in self.cache:
            return self.cache[text]
        expected, transitions, rules, well_typed = self.expected(text)
        if expected == BEYOND:
            case = self.cache[text] = Case(text, BEYOND, expected, None, transitions, rules, origin)
            return case
        answer = self._call(text, timeout)
        case = Case(text, klass(expected, answer, well_typed, self.arithmetic), expected, answer, transitions, rules, origin)
        self.cache[text] = case
        return case
