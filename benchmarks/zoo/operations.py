"""The zoo's operation-syntax machine (issue 40): the notation of docs/examples/notations/
operations.toml, read by the strict parser of tests/oracle_mocks/operations_strict.py, run by
an abstract machine of its own (a control, an environment and a continuation stack; exact
integers). Its planted bugs (GOI_BUGS):

    stuck-copy   a function passed to a λ whose parameter is used twice or more cannot be
                 copied: the machine stops, no transition applying at the copy
    stack-wrap   the continuation stack holds 8 frames; a 9th pushes the oldest out (a bug of
                 deep programs only: the survey's first stages never nest that deep)
"""

from _zoo import bugs, serve

import operations_strict
from goi.semantics import syntax as S

ON = bugs("stuck-copy", "stack-wrap")
STACK = 6


class Stuck(Exception):
    pass


def uses(t, x) -> int:
    if isinstance(t, S.Var):
        return int(t.name == x)
    if isinstance(t, S.Lam):
        return 0 if t.var == x else uses(t.body, x)
    if isinstance(t, S.Let):
        return uses(t.bound, x) + (0 if t.var == x else uses(t.body, x))
    return sum(uses(s, x) for s in S.subterms(t))


def run(term):
    control, env, value, stack, steps = term, {}, None, [], 0

    def push(frame):
        stack.append(frame)
        if "stack-wrap" in ON and len(stack) > STACK:
            del stack[0]

    while True:
        steps += 1
        if steps > 2_000_000:
            raise Stuck("out of fuel")
        if control is not None:
            t = control
            if isinstance(t, S.Const):
                value, control = int(t.value), None
            elif isinstance(t, S.Var):
                value, control = env[t.name], None
            elif isinstance(t, S.Lam):
                value, control = ("closure", t, env), None
            elif isinstance(t, S.Let):
                push(("let", t, env))
                control = t.bound
            elif isinstance(t, S.App):
                push(("arg", t, env))
                control = t.fun
            else:
                push(("right", t, env))
                control = t.left
            continue
        if not stack:
            return value
        frame = stack.pop()
        kind = frame[0]
        if kind == "let":
            _, t, saved = frame
            env, control = {**saved, t.var: value}, t.body
        elif kind == "arg":
            _, t, saved = frame
            push(("call", value))
            env, control = saved, t.arg
        elif kind == "call":
            f = frame[1]
            if not isinstance(f, tuple):
                raise Stuck("applied a number")
            _, lam, closed = f
            if "stuck-copy" in ON and isinstance(value, tuple) and uses(lam.body, lam.var) >= 2:
                raise Stuck(f"no transition applies: copy of a box at node b{id(lam) % 997}")
            env, control = {**closed, lam.var: value}, lam.body
        elif kind == "right":
            _, t, saved = frame
            push(("apply", t.op, value))
            env, control = saved, t.right
        else:
            _, op, a = frame
            b = value
            if isinstance(a, tuple) or isinstance(b, tuple):
                raise Stuck(f"{op} on a function")
            value = a + b if op == "+" else a - b if op == "-" else a * b


def respond(text: str) -> dict:
    try:
        term = operations_strict.parse(text)
    except operations_strict.Syntax as exc:
        return {"rejected": f"syntax error: {exc}"}
    try:
        value = run(term)
    except Stuck as exc:
        return {"error": f"stuck: {exc}"}
    except KeyError as exc:
        return {"rejected": f"unbound variable {exc}"}
    return {"value": "λ" if isinstance(value, tuple) else str(value)}


serve(respond)
