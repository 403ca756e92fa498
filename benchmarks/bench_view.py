"""`goi view` at scale: the authors' gradient-descent example (thousands of transitions).
Not a test: it asserts nothing. Reports, for each picture budget, the time to write the page
and its size, and — in headless chromium driven by Selenium, when chromium and
chromedriver are installed — the time to its first paint of step 0 and to step forward.

    python benchmarks/bench_view.py [--frames 60,200] [PROGRAM]

Targets (issue 24): written in ≤ 10 s, ≤ 20 MB, first paint ≤ 2 s.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import goi  # noqa: E402

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
    args = ap.parse_args()
    text = Path(args.program).read_text(encoding="utf-8")
    browser = shutil.which("chromedriver") and (shutil.which("chromium") or shutil.which("chromium-browser"))
    print(f"{'frames':>7} {'steps':>7} {'write s':>9} {'MB':>7} {'first paint s':>14} {'20 steps s':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for frames in (int(f) for f in args.frames.split(",")):
            page = Path(tmp) / f"view-{frames}.html"
            start = time.perf_counter()
            goi.view(text, str(page), max_frames=frames)
            written = time.perf_counter() - start
            size = page.stat().st_size / 1e6
            first, steps = paint(page) if browser else (float("nan"), float("nan"))
            count = text and page.read_text(encoding="utf-8").count('"n": ')
            print(f"{frames:>7} {count - 1:>7} {written:>9.2f} {size:>7.2f} {first:>14.2f} {steps:>11.2f}")


if __name__ == "__main__":
    main()
