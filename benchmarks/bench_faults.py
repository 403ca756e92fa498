"""The reproducers of issue 39, each run as a `goi` command in a subprocess of its own: exit
code, whether a traceback was printed, the last line said (on standard error, else standard
output), the seconds it took, and whether what the user had is intact. Never asserted
(the tests assert each row: tests/test_checkpoint.py, test_campaign_faults.py,
test_hostile_pages.py, …): run it and read the table, or point it at another goi to compare.

    python benchmarks/bench_faults.py [--python PATH_TO_ANOTHER_VENVS_PYTHON]

A row that could run unbounded is cut at 120 s and a memory limit of 4 GiB (said in the table).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_SECONDS = 120
LIMIT_BYTES = 4 << 30


def rows(tmp: Path):
    """(what, argv, setup) — setup(tmp) prepares files and returns a check of what the user had (or None)."""
    def file(name, text):
        (tmp / name).write_text(text, encoding="utf-8")
        return str(tmp / name)

    def intact(name, text):
        path = file(name, text)
        return lambda: (tmp / name).read_text(encoding="utf-8") == text if (tmp / name).exists() else False, path

    good = tmp / "good.jsonl"

    def damaged(kind):
        """A finished size-4 checkpoint, one record damaged in one way."""
        def setup():
            path = tmp / f"damaged-{kind}.jsonl"
            lines = good.read_text(encoding="utf-8").splitlines()
            entry = json.loads(lines[2])
            result = entry["result"]
            bad = {
                "head a list": None, "head null": None,
                "no shard": json.dumps({"result": result}),
                "result null": json.dumps({"shard": entry["shard"], "result": None}),
                "no held": json.dumps({"shard": entry["shard"], "result": {k: v for k, v in result.items() if k != "held"}}),
                "programs x": json.dumps({"shard": entry["shard"], "result": {**result, "programs": "x"}}),
                "programs inflated": json.dumps({"shard": entry["shard"], "result": {**result, "programs": 100_000}}),
                "last line cut": lines[-1][: len(lines[-1]) // 2],
            }[kind]
            if kind == "head a list":
                lines[0] = "[1, 2]"
            elif kind == "head null":
                lines[0] = "null"
            elif kind == "last line cut":
                lines[-1] = bad
            else:
                lines[2] = bad
            text = "\n".join(lines) + ("" if kind == "last line cut" else "\n")
            path.write_text(text, encoding="utf-8")
            return None, str(path)
        return setup

    props4 = ["props", "soundness", "--exhaustive", "4", "--profile", "ci"]
    out = []
    notes_check, notes = intact("notes.txt", "my notes\n")
    out.append(("--checkpoint on a file of the user's, no --resume", props4 + ["--checkpoint", notes], lambda: (notes_check, None)))
    for kind in ("head a list", "head null", "no shard", "result null", "no held", "programs x", "programs inflated",
                 "last line cut"):
        out.append((f"--resume, checkpoint damaged: {kind}", props4 + ["--checkpoint", "{path}", "--resume"], damaged(kind)))
    out.append(("--checkpoint /dev/zero --resume", props4 + ["--checkpoint", "/dev/zero", "--resume"], None))
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    out.append(("--checkpoint FIFO --resume", props4 + ["--checkpoint", str(fifo), "--resume"], None))
    out.append(("--checkpoint in a folder that is not there", props4 + ["--checkpoint", str(tmp / "no" / "c.jsonl")], None))
    out.append(("props --shards 1000000000", ["props", "--shards", "1000000000"], None))
    out.append(("conjectures --exhaustive 2 --parts 1000000", ["conjectures", "--exhaustive", "2", "--parts", "1000000"], None))
    out.append(("props --exhaustive 40", ["props", "--exhaustive", "40"], None))
    out.append(("props --index 300:0", ["props", "--index", "300:0"], None))
    out.append(("props --index 99999999999999999999:0", ["props", "--index", "99999999999999999999:0"], None))
    out.append(("conjectures --exhaustive 3 --context-size 12", ["conjectures", "--exhaustive", "3", "--context-size", "12"], None))
    out.append(("props --exhaustive 4 --cluster ucx://127.0.0.1:1", props4 + ["--cluster", "ucx://127.0.0.1:1"], None))
    out.append(("props --exhaustive 4 --cluster tls://127.0.0.1:1", props4 + ["--cluster", "tls://127.0.0.1:1"], None))
    hostile = file("hostile.goi", "1 -- <!--<script>window.pwned=1</script>\n")
    link = tmp / "page.html"
    link.symlink_to(tmp / "elsewhere.html")
    out.append(("goi view -o a dangling link", ["view", hostile, "-o", str(link)],
                lambda: (lambda: not (tmp / "elsewhere.html").exists(), None)))
    out.append(("goi test, max-steps: ²", ["test", file("sq.goi", "1\n-- expect max-steps: ²\n-- expect: 1\n")], None))
    return out, good


def run(python: str, argv: list[str]) -> dict:
    """One reproducer in a process of its own, under a memory limit and a time cut."""
    start = time.perf_counter()

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen([python, "-m", "goi", *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=limits, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=LIMIT_SECONDS)
        cut = None
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        cut = f"(cut at {LIMIT_SECONDS} s)"
    text = err.decode("utf-8", "replace")
    said = [line for line in text.splitlines()
            if line.strip() and not line.startswith("[goi]") and "Fontconfig" not in line]
    last = said[-1] if said else (out.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
    return {"code": proc.returncode, "seconds": time.perf_counter() - start, "traceback": "Traceback" in text,
            "said": cut or last}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable, help="the python of the goi to try (default: this one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        table, good = rows(tmp)
        subprocess.run([args.python, "-m", "goi", "props", "soundness", "--exhaustive", "4", "--profile", "ci",
                        "--checkpoint", str(good)], capture_output=True)
        print(f"{'reproducer':<58} {'exit':>5} {'tb':>3} {'kept':>5} {'s':>6}  said")
        for what, argv, setup in table:
            check, path = (setup() if setup else (None, None))
            argv = [a.replace("{path}", path or "") for a in argv]
            r = run(args.python, argv)
            kept = "" if check is None else ("yes" if check() else "NO")
            print(f"{what:<58} {r['code']!s:>5} {'yes' if r['traceback'] else '':>3} {kept:>5} {r['seconds']:6.1f}  "
                  f"{r['said'][:150]}")
        # standard error's reader gone: the exit code of a bad program must stay 3
        read, write = os.pipe()
        os.close(read)
        proc = subprocess.run([args.python, "-m", "goi", "run", "-e", "(1"], stderr=write, stdout=subprocess.PIPE)
        os.close(write)
        print(f"{'standard error closed by its reader, a parse error':<58} {proc.returncode:>5}")


if __name__ == "__main__":
    main()
