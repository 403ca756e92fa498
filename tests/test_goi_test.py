"""`goi test`: programs checked against the expected results kept with them (goi/expected.py).
The corpus tests/programs/ keeps its expectations inline and must pass."""

import json
from pathlib import Path

import pytest

from goi import expected
from goi.cli import main
from goi.cli import exitcodes

ROOT = Path(__file__).parent.parent


def test_the_corpus_meets_its_expectations(capsys):
    assert main(["test", str(ROOT / "tests/programs")]) == exitcodes.OK
    out = capsys.readouterr().out
    programs = len(list((ROOT / "tests/programs").glob("*/*.goi")))  # every program of the corpus, each with its expectations
    assert programs >= 20 and out.rstrip().endswith(f"{programs} passed, 0 failed")
    cases = expected.check_paths([str(ROOT / "tests/programs")])
    assert all(c.source == "inline" and {"value", "type", "parameters"} <= set(c.expected) for c in cases)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_mismatch_fails_with_a_diff_and_update_writes_what_it_does_now(tmp_path, capsys):
    write(tmp_path, "a.goi", "let f @ p = {1} + 2 in f p\n-- expect: 4\n-- expect parameters: 1\n")
    write(tmp_path, "b.goi", "1 1\n")
    write(tmp_path, "b.expected", "# an ill-typed program\nstatus: type error\n")
    write(tmp_path, "c.goi", "(λx. x) 2\n")
    write(tmp_path, "d.goi", "1 +\n-- expect status: parse error\n")
    write(tmp_path, "e.goi", "let f x = f x in 1\n")
    write(tmp_path, "e.expected", "status: type error\n")
    write(tmp_path, "g.goi", "(λx. x x) (λx. x x)\n")
    assert main(["test", str(tmp_path)]) == exitcodes.NOT_EQUIVALENT
    out = capsys.readouterr().out
    assert f"FAILED {tmp_path / 'a.goi'}: value expected 4, got 3" in out
    assert "-value: 4\n  +value: 3" in out
    assert f"ERROR {tmp_path / 'c.goi'}: no expected result" in out
    assert "2 failed" in out or "1 failed" in out
    assert main(["test", str(tmp_path), "--update"]) == exitcodes.OK
    capsys.readouterr()
    assert (tmp_path / "a.goi").read_text(encoding="utf-8") == "let f @ p = {1} + 2 in f p\n-- expect: 3\n-- expect parameters: 1\n"
    assert "-- expect: 2" in (tmp_path / "c.goi").read_text(encoding="utf-8")
    assert main(["test", str(tmp_path), "--json"]) == exitcodes.OK
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "goi.test/1" and data["passed"] == 6 and data["failed"] == 0


def test_options_budget_and_division(tmp_path):
    write(tmp_path, "loop.goi", "(λx. x + x) 1\n-- expect max-steps: 5\n-- expect status: budget\n")
    write(tmp_path, "div.goi", "1 / 0\n-- expect division: strict\n-- expect status: undefined\n")
    write(tmp_path, "total.goi", "1 / 0\n-- expect: 0\n")
    cases = expected.check_paths([str(tmp_path)])
    assert [c.passed for c in cases] == [True, True, True], [c.to_json() for c in cases]


def test_a_bad_expectation_is_an_error_named_where_it_is(tmp_path, capsys):
    write(tmp_path, "a.goi", "1\n-- expect colour: red\n")
    assert main(["test", str(tmp_path)]) == exitcodes.NOT_EQUIVALENT
    assert f"ERROR {tmp_path / 'a.goi'}: {tmp_path / 'a.goi'}:2: unknown key 'colour'" in capsys.readouterr().out
    assert main(["test", str(tmp_path / "missing")]) == exitcodes.BAD_INPUT
    assert "goi: io error: cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("steps", ["²", "١٢", "1" * 5000, "-1", "1e3"])
def test_a_max_steps_that_is_not_an_ascii_whole_number_is_an_expectation_error(tmp_path, capsys, steps):
    """Not exit 70: '²' and '١٢' are digits to str.isdigit, but not to int()."""
    write(tmp_path, "a.goi", f"1\n-- expect max-steps: {steps}\n-- expect: 1\n")
    assert main(["test", str(tmp_path)]) == exitcodes.NOT_EQUIVALENT
    assert "max-steps is a whole number" in capsys.readouterr().out


def test_a_folder_with_no_programs_is_a_usage_error(tmp_path, capsys):
    assert main(["test", str(tmp_path)]) == exitcodes.USAGE
    assert "no .goi programs in" in capsys.readouterr().err


PROGRAM = "let f @ p = {1} + 2 in f p\n"  # final, value 3, type F, parameters 1
RIGHT = {"status": "final", "value": "3", "type": "F", "parameters": "1"}
WRONG = {"status": "budget", "value": "4", "type": "F -> F", "parameters": "2"}


def test_every_expectation_key_fails_when_the_result_differs_in_that_key_alone(tmp_path):
    """Each result key is compared: the expectation right in every key but one fails, with
    exactly that key named — inline and in a .expected file alike."""
    for source in ("inline", "file"):
        for key in RIGHT:
            expectation = {**RIGHT, key: WRONG[key]}
            if key == "status":
                del expectation["value"]  # a value implies status final
            folder = tmp_path / f"{source}-{key}"
            folder.mkdir()
            if source == "inline":
                path = write(folder, "p.goi", PROGRAM + "".join(f"-- expect {k}: {v}\n" for k, v in expectation.items()))
            else:
                path = write(folder, "p.goi", PROGRAM)
                write(folder, "p.expected", "".join(f"{k}: {v}\n" for k, v in expectation.items()))
            (case,) = expected.check_paths([str(path)])
            assert case.source == source and not case.passed, (source, key)
            assert [k for k, _, _ in case.mismatches] == [key], (source, key, case.mismatches)
            assert case.mismatches[0][1:] == (WRONG[key], RIGHT[key])
    path = write(tmp_path, "right.goi", PROGRAM + "".join(f"-- expect {k}: {v}\n" for k, v in RIGHT.items()))
    assert expected.check_paths([str(path)])[0].passed


# ---- bounded reads (goi/files.py) -------------------------------------------------------------

import os  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from goi import files  # noqa: E402

needs_devices = pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"),
                                   reason="/dev/zero and FIFOs (POSIX)")


@pytest.fixture
def short_silence(monkeypatch):
    """A FIFO nobody writes to is given up after 0.2 s instead of 10: the verdict is the same
    (no writer ever comes), only sooner."""
    monkeypatch.setattr(files, "READ_TIMEOUT", 0.2)


@needs_devices
def test_goi_test_reads_a_program_or_an_expectation_that_is_dev_zero_within_its_bound(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    os.symlink("/dev/zero", tmp_path / "a" / "zero.goi")
    assert main(["test", str(tmp_path / "a")]) == exitcodes.BUDGET
    assert f"{tmp_path / 'a' / 'zero.goi'} is larger than --max-input-bytes" in capsys.readouterr().err
    (tmp_path / "b").mkdir()
    write(tmp_path / "b", "p.goi", "1 + 2\n")
    os.symlink("/dev/zero", tmp_path / "b" / "p.expected")
    assert main(["test", str(tmp_path / "b"), "--max-input-bytes", "1000"]) == exitcodes.BUDGET
    assert f"{tmp_path / 'b' / 'p.expected'} is larger than --max-input-bytes 1000" in capsys.readouterr().err


@needs_devices
def test_goi_test_gives_up_on_a_fifo_nobody_writes_to(tmp_path, capsys, short_silence):
    (tmp_path / "a").mkdir()
    os.mkfifo(tmp_path / "a" / "pipe.goi")
    assert main(["test", str(tmp_path / "a")]) == exitcodes.BAD_INPUT
    assert "pipe.goi: the FIFO (named pipe) gave no end of file within 0.2 s" in capsys.readouterr().err
    (tmp_path / "b").mkdir()
    write(tmp_path / "b", "p.goi", "1 + 2\n")
    os.mkfifo(tmp_path / "b" / "p.expected")
    assert main(["test", str(tmp_path / "b")]) == exitcodes.BAD_INPUT
    assert "p.expected: the FIFO (named pipe) gave no end of file" in capsys.readouterr().err


@needs_devices
@pytest.mark.parametrize("argv", [["run"], ["typecheck"], ["view", "-o", "{out}"], ["report", "--from"],
                                  ["equiv", "-e", "1"], ["oracle", "--impl", "true", "--replay"]])
def test_every_command_that_reads_a_path_gives_up_on_a_silent_fifo(tmp_path, capsys, short_silence, argv):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    argv = [a.replace("{out}", str(tmp_path / "v.html")) for a in argv]
    code = main([*argv, str(pipe)])
    err = capsys.readouterr().err
    assert code == exitcodes.BAD_INPUT, (code, err)
    assert "the FIFO (named pipe) gave no end of file within 0.2 s" in err and "Traceback" not in err


@needs_devices
def test_a_fifo_that_is_written_to_is_read_to_its_end(tmp_path, capsys):
    pipe = tmp_path / "pipe.goi"
    os.mkfifo(pipe)

    def writer():
        with open(pipe, "w", encoding="utf-8") as handle:
            handle.write("(λx. x + x) 21\n")

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert main(["run", str(pipe)]) == exitcodes.OK
    finally:
        thread.join()
    assert capsys.readouterr().out.startswith("value: 42")


def test_a_directory_is_refused_by_name(tmp_path, capsys):
    assert main(["run", str(tmp_path)]) == exitcodes.BAD_INPUT
    assert f"cannot read {tmp_path}: it is a directory" in capsys.readouterr().err


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path):
    path = tmp_path / "p.goi"
    path.write_bytes(b"1" * 100)
    assert files.read_path(str(path), 100) == b"1" * 100
    path.write_bytes(b"1" * 101)
    with pytest.raises(files.BudgetError, match="larger than --max-input-bytes 100"):
        files.read_path(str(path), 100)


class SteppedClock:
    """time.monotonic for goi/files.py as a writer says: the real clock plus the jumps the
    writer makes, so a test can put seconds of silence between chunks without waiting them."""

    def __init__(self):
        self.offset = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset


@needs_devices
def test_a_fifo_is_read_while_it_speaks_however_long_it_speaks(tmp_path, monkeypatch):
    """The bound is on silence, not on the whole read: 30 chunks, 4 s of (stepped) silence
    before each, 120 s in all against a 5 s bound, read to the end; and a writer silent past
    the bound after its first chunk is given up on."""
    import types

    clock = SteppedClock()
    monkeypatch.setattr(files, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def writer(chunks: int, silence: float, last_silence: float = 0.0):
        with open(pipe, "wb", buffering=0) as handle:
            for _ in range(chunks):
                clock.offset += silence
                handle.write(b"1 + ")
            handle.write(b"1\n")
            clock.offset += last_silence
            if last_silence:
                gone.wait(60)  # kept open, silent, until the reader has given up

    gone = threading.Event()
    thread = threading.Thread(target=writer, args=(30, 4.0))
    thread.start()
    try:
        assert files.read_path(str(pipe), 1000, timeout=5.0) == b"1 + " * 30 + b"1\n"
    finally:
        thread.join()
    thread = threading.Thread(target=writer, args=(1, 0.0, 6.0))
    thread.start()
    try:
        with pytest.raises(files.ReadError, match="gave no end of file within 5 s"):
            files.read_path(str(pipe), 1000, timeout=5.0)
    finally:
        gone.set()
        thread.join()
