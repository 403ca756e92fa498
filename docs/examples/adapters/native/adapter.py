#!/usr/bin/env python3
"""The adapter between `goi oracle` and mlc, a native compiler (docs/ORACLE.md, Worked
adapters): compile the program goi wrote to {file}, run the executable, answer in goi's
format. A compiler that refuses the program rejects it; a compiler that crashes, or an
executable that stops on a signal, is an error of the implementation, never a rejection.

    goi oracle --impl 'python3 adapter.py {file}' --notation docs/examples/notations/ml.toml \\
        --arithmetic integer --division strict
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def answer(program_file: str) -> dict:
    with tempfile.TemporaryDirectory() as work:  # removed whatever happens (goi kills a hang's group)
        executable = os.path.join(work, "program")
        compiled = subprocess.run([sys.executable, os.path.join(HERE, "mlc.py"), program_file, "-o", executable],
                                  capture_output=True, text=True)
        if compiled.returncode == 2 and compiled.stdout.startswith("syntax error"):
            return {"rejected": compiled.stdout.strip()}  # not in its language: the parser said so
        if compiled.returncode != 0:
            last = (compiled.stderr.strip().splitlines() or ["no message"])[-1]
            return {"error": f"compiler crashed: {last}"}
        ran = subprocess.run([executable], capture_output=True, text=True)
        if ran.returncode < 0:
            return {"error": f"killed by signal {-ran.returncode}"}
        if ran.returncode != 0:
            return {"error": (ran.stderr.strip().splitlines() or [f"exit status {ran.returncode}"])[-1]}
        out = ran.stdout.strip()
        return {"value": "λ" if out == "<fun>" else out}


if __name__ == "__main__":
    print(json.dumps(answer(sys.argv[1]), ensure_ascii=False))
