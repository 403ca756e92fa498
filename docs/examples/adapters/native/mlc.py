#!/usr/bin/env python3
"""mlc: a small native compiler of the ML-like notation (docs/examples/notations/ml.toml) to
C, then to an executable with the system's C compiler. It stands for "your implementation":
it knows nothing of goi. Integers are 64-bit, division rounds toward zero and a division by
zero stops the program ("division by zero", exit 3); a function's value prints as <fun>.

    python3 mlc.py PROGRAM.ml -o PROGRAM      # exit 2 and "syntax error: …" on a bad program
    ./PROGRAM                                  # prints the value

Each λ becomes a C function of its argument and an environment of the variables it captures
(closure conversion); `let` a local (GCC's statement expressions). MLC_BUG=floor plants a
bug (division rounds down, not toward zero: wrong only on a negative, inexact quotient)."""

import os
import re
import subprocess
import sys

KEYWORDS = {"fun", "let", "in", "rec", "if", "then", "else", "match", "with"}
TOKEN = re.compile(r"\s*(?:(\d+)|([a-z][a-z0-9_]*)|(->|[()+\-*/=]))")

RUNTIME = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct V V;
typedef V *(*Code)(V **env, V *arg);
struct V { int closure; long long n; Code code; V **env; };
static V *num(long long n) { V *v = malloc(sizeof *v); v->closure = 0; v->n = n; return v; }
static V *clo(Code code, int k, V **env) {
    V *v = malloc(sizeof *v); v->closure = 1; v->code = code;
    v->env = malloc(sizeof(V *) * (k ? k : 1)); memcpy(v->env, env, sizeof(V *) * k); return v;
}
static void fail(const char *m) { fprintf(stderr, "runtime error: %s\n", m); exit(3); }
static V *apply(V *f, V *a) { if (!f->closure) fail("applied a number"); return f->code(f->env, a); }
static V *arith(char op, V *a, V *b) {
    if (a->closure || b->closure) fail("arithmetic on a function");
    switch (op) {
    case '+': return num(a->n + b->n);
    case '-': return num(a->n - b->n);
    case '*': return num(a->n * b->n);
    default:
        if (b->n == 0) fail("division by zero");
#ifdef FLOOR
        if ((a->n % b->n != 0) && ((a->n < 0) != (b->n < 0))) return num(a->n / b->n - 1);
#endif
        return num(a->n / b->n);
    }
}
"""


class SyntaxError_(Exception):
    pass


def parse(text):
    tokens, i = [], 0
    while text[i:].strip():
        m = TOKEN.match(text, i)
        if not m:
            raise SyntaxError_(f"unexpected {text[i]!r} at offset {i}")
        tokens.append(("num", int(m[1])) if m[1] else ("kw" if m[2] in KEYWORDS else "name", m[2]) if m[2] else (m[3], m[3]))
        i = m.end()
    pos = [0]

    def peek():
        return tokens[pos[0]][0] if pos[0] < len(tokens) else "end"

    def take(kind, value=None):
        if peek() != kind or (value is not None and tokens[pos[0]][1] != value):
            raise SyntaxError_(f"expected {value or kind}, got {peek()}")
        pos[0] += 1
        return tokens[pos[0] - 1][1]

    def expr():
        if peek() == "kw" and tokens[pos[0]][1] == "fun":
            take("kw", "fun"); x = take("name"); take("->")
            return ("lam", x, expr())
        if peek() == "kw" and tokens[pos[0]][1] == "let":
            take("kw", "let"); x = take("name"); params = []
            while peek() == "name":
                params.append(take("name"))
            take("="); bound = expr(); take("kw", "in")
            for p in reversed(params):
                bound = ("lam", p, bound)
            return ("let", x, bound, expr())
        return binary(0)

    def binary(level):
        if level == 2:
            f = atom()
            while peek() in ("num", "name", "("):
                f = ("app", f, atom())
            return f
        left = binary(level + 1)
        while peek() in (("+", "-"), ("*", "/"))[level]:
            op = take(peek())
            left = ("op", op, left, binary(level + 1))
        return left

    def atom():
        if peek() == "num":
            return ("num", take("num"))
        if peek() == "name":
            return ("var", take("name"))
        take("("); e = expr(); take(")")
        return e

    e = expr()
    if peek() != "end":
        raise SyntaxError_(f"unexpected {peek()}")
    return e


def free(e):
    kind = e[0]
    if kind == "num":
        return set()
    if kind == "var":
        return {e[1]}
    if kind == "lam":
        return free(e[2]) - {e[1]}
    if kind == "let":
        return free(e[2]) | (free(e[3]) - {e[1]})
    if kind == "app":
        return free(e[1]) | free(e[2])
    return free(e[2]) | free(e[3])


class Compiler:
    def __init__(self):
        self.functions, self.counter = [], 0

    def fresh(self, stem):
        self.counter += 1
        return f"{stem}{self.counter}"

    def expr(self, e, scope):
        """C for e; scope maps each variable in scope to the C expression that holds it."""
        kind = e[0]
        if kind == "num":
            return f"num({e[1]}LL)"
        if kind == "var":
            if e[1] not in scope:
                raise SyntaxError_(f"unbound variable {e[1]}")
            return scope[e[1]]
        if kind == "op":
            return f"arith('{e[1]}', {self.expr(e[2], scope)}, {self.expr(e[3], scope)})"
        if kind == "app":
            return f"apply({self.expr(e[1], scope)}, {self.expr(e[2], scope)})"
        if kind == "let":
            local = self.fresh("l")
            return (f"({{ V *{local} = {self.expr(e[2], scope)}; "
                    f"{self.expr(e[3], {**scope, e[1]: local})}; }})")
        # a λ: a C function of (env, arg), and a closure of what it captures
        captured = sorted(free(e) - {e[1]})
        name = self.fresh("f")
        inner = {x: f"env[{i}]" for i, x in enumerate(captured)}
        inner[e[1]] = "arg"
        body = self.expr(e[2], inner)
        self.functions.append(f"static V *{name}(V **env, V *arg) {{ (void)env; return {body}; }}")
        values = ", ".join(scope[x] for x in captured) or "0"
        return f"clo({name}, {len(captured)}, (V *[]){{{values}}})"

    def program(self, e):
        main = self.expr(e, {})
        bug = "#define FLOOR 1\n" if os.environ.get("MLC_BUG") == "floor" else ""
        return (bug + RUNTIME + "".join(f"static V *{f.split('(')[0].split()[-1].lstrip('*')}(V **, V *);\n"
                                  for f in self.functions)
                + "\n".join(self.functions) + "\nint main(void) {\n    V *v = " + main + ";\n"
                + '    if (v->closure) puts("<fun>"); else printf("%lld\\n", v->n);\n    return 0;\n}\n')


def main(argv):
    if len(argv) != 4 or argv[2] != "-o":
        sys.exit("usage: mlc.py PROGRAM.ml -o EXECUTABLE")
    with open(argv[1], encoding="utf-8") as handle:
        text = handle.read()
    try:
        c = Compiler().program(parse(text))
    except SyntaxError_ as exc:
        print(f"syntax error: {exc}")
        sys.exit(2)
    source = argv[3] + ".c"
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(c)
    subprocess.run(["cc", "-O0", "-w", "-o", argv[3], source], check=True)


if __name__ == "__main__":
    main(sys.argv)
