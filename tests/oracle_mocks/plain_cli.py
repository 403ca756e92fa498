"""A command-line implementation that knows nothing of goi's protocol: `plain_cli.py FILE`
prints `result = VALUE` and exits 0; on a program it cannot parse it writes `syntax error: …`
on standard error and exits 2; on a crash (its planted bug: any program with a product) it
writes an OCaml-like `Fatal error: exception …` on standard error and exits 2 as well; a
division by zero is a runtime error (exit 3). Only
standard error tells a rejection from a crash: a target file says so (tests/test_oracle_face_value.py)."""

import sys

from common import correctly


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        text = handle.read()
    answer = correctly(text)
    if "rejected" in answer:
        sys.stderr.write(f"syntax error: {answer['rejected']}\n")
        return 2
    if " * " in text:
        sys.stderr.write('Fatal error: exception Invalid_argument("index out of bounds")\n')
        return 2
    import goi

    strict = goi.run(text, division="strict")  # a division by zero stops it
    if strict.status == "undefined":
        sys.stderr.write(f"runtime error: {strict.reason}\n")
        return 3
    value = answer["value"]
    print("compiling… done")
    print(f"result = {'[' + ', '.join(value) + ']' if isinstance(value, list) else value}")
    return 0


sys.exit(main())
