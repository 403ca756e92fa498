"""`goi view` at scale: the authors' gradient-descent example (thousands of transitions), or
with --church N the Church-style program of N nested doublings (N = 14: 704,705
transitions). Not a test: it asserts nothing. Reports, for each picture budget, the
transitions and the steps recorded in full, the time to write the page, the memory it took
(peak resident set of the process that wrote it), its size, and — in headless chromium
driven by Selenium, when chromium and chromedriver are installed — the time to its first
paint of step 0 and to step forward.

    python benchmarks/bench_view.py [--frames 60,200] [--church N] [PROGRAM]

Targets: written in ≤ 10 s, ≤ 20 MB, first paint ≤ 2 s (issue 24); the 704,705-step run
in ≤ 20 s, ≤ 20 MB, open in ≤ 5 s (issue 30).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


CHURCH = "let d = λf. λx. f (f x) in {}λx. x + 1{} 0"
DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "programs" / "visualiser" / "gradient_descent_in_calculus.goi"


def paint(page: Path) -> tuple[float, float]:
    """(seconds to the first picture of step 0, seconds for the next 20 steps), in headless chromium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        start = time.perf_counter()
        browser.get(page.as_uri())
        WebDriverWait(browser, 120).until(lambda b: b.execute_script("return document.body.dataset.ready") == "0")
        first = time.perf_counter() - start
        start = time.perf_counter()
        for k in range(1, 21):
            browser.execute_script("document.getElementById('next').click()")
            WebDriverWait(browser, 60).until(lambda b: b.execute_script("return document.body.dataset.ready") == str(k))
        return first, time.perf_counter() - start
    finally:
        browser.quit()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("program", nargs="?", default=str(DEFAULT))
    ap.add_argument("--frames", default="60,200", help="picture budgets to try (default 60, goi view's default, and 200)")
    ap.add_argument("--church", type=int, metavar="N", help="instead of PROGRAM: N nested Church-style doublings")
    args = ap.parse_args()
    text = (CHURCH.format("d (" * args.church, ")" * args.church) if args.church
            else Path(args.program).read_text(encoding="utf-8"))
    browser = shutil.which("chromedriver") and (shutil.which("chromium") or shutil.which("chromium-browser"))
    print(f"{'frames':>7} {'steps':>8} {'recorded':>9} {'write s':>8} {'peak MB':>8} {'MB':>7} {'first paint s':>14} "
          f"{'20 steps s':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "program.goi"
        source.write_text(text, encoding="utf-8")
        for frames in (int(f) for f in args.frames.split(",")):
            page = Path(tmp) / f"view-{frames}.html"
            start = time.perf_counter()
            # a process of its own, so that its peak memory is the page's writing alone
            done = subprocess.run([sys.executable, "-m", "goi", "view", "--json", "--max-frames", str(frames), "-o", str(page),
                                   str(source)], capture_output=True, text=True, check=True)
            written = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            data = json.loads(done.stdout)
            size = page.stat().st_size / 1e6
            first, steps = paint(page) if browser else (float("nan"), float("nan"))
            print(f"{frames:>7} {data['steps']:>8} {data['recorded']:>9} {written:>8.2f} {peak:>8.0f} {size:>7.2f} "
                  f"{first:>14.2f} {steps:>11.2f}")


if __name__ == "__main__":
    main()
