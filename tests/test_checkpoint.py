"""A campaign's checkpoint (goi/campaigns/checkpoint.py) loses nothing and believes nothing: one
test per way a checkpoint can be damaged or misnamed, each through `goi props --exhaustive`
as a user runs it, asserting the exit code, the message and — where the campaign goes on —
that the summary counts every program exactly once."""

from __future__ import annotations

import json
import os
import stat

import pytest

from goi.cli import exitcodes, main
from goi.campaigns import checkpoint as checkpoints

BOUND = 4
TOTAL = 325  # programs of size ≤ 4
SUMMARY = f"soundness      held    on all {TOTAL} programs of size ≤ {BOUND}"


def props(path, *more):
    return main(["props", "soundness", "--concrete", "--exhaustive", str(BOUND), "--profile", "ci", "--checkpoint",
                 str(path), *more])


@pytest.fixture
def finished(tmp_path, capsys):
    """A finished campaign's checkpoint: its lines (head first)."""
    path = tmp_path / "c.jsonl"
    assert props(path) == exitcodes.OK
    assert SUMMARY in capsys.readouterr().out
    return path


def lines_of(path):
    return path.read_text(encoding="utf-8").splitlines()


def resume_with(path, capsys, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = props(path, "--resume")
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def records(path):
    out = []
    for line in lines_of(path)[1:]:
        try:
            out.append(json.loads(line)["shard"])
        except (ValueError, KeyError, TypeError):
            out.append(None)
    return out


# ---- the head: the file is this campaign's, or refused whole ----------------------------

@pytest.mark.parametrize("head", ["[1, 2]", "null", '"text"', "{}", '{"campaign": {"command": "props"}}', "{cut"])
def test_a_head_that_is_not_this_campaigns_is_refused_whole(finished, capsys, head):
    before = lines_of(finished)
    code, out, err = resume_with(finished, capsys, [head] + before[1:])
    assert code == exitcodes.DATA, err
    assert "checkpoint" in err and str(finished) in err and "Traceback" not in err
    assert lines_of(finished) == [head] + before[1:]  # refused, not rewritten


def test_a_checkpoint_of_programs_is_not_resumed_as_one_of_shapes(finished, capsys):
    """The same bound over shapes is another campaign (its head says which): refused whole."""
    before = lines_of(finished)
    code = main(["props", "soundness", "--exhaustive", str(BOUND), "--profile", "ci", "--checkpoint", str(finished),
                 "--resume"])
    err = capsys.readouterr().err
    assert code == exitcodes.DATA and "checkpoint" in err and "Traceback" not in err, err
    assert lines_of(finished) == before


# ---- records: each damaged one reported by line, never counted, its shard run again ---------

def damaged(line: str, shard: str) -> list:
    entry = json.loads(line)
    result = entry["result"]
    return [
        json.dumps({"result": result}),  # no "shard"
        json.dumps({"shard": shard, "result": None}),
        json.dumps({"shard": shard, "result": {k: v for k, v in result.items() if k != "held"}}),
        json.dumps({"shard": shard, "result": {**result, "programs": "x"}}),
        json.dumps({"shard": shard, "result": {**result, "programs": 100_000}}),  # counts the shard cannot hold
        json.dumps({"shard": shard, "result": {**result, "held": {"soundness": 100_000}}}),
        json.dumps({"shard": shard, "result": {**result, "failures": [{"property": "soundness", "size": 99, "index": 0,
                                                                        "program": "1", "message": "m"}]}}),
        json.dumps({"shard": "9:0-400", "result": result}),  # not one of this campaign's shards
        line[: len(line) // 2],  # cut short
        "[]",
    ]


@pytest.mark.parametrize("kind", range(10))
def test_a_damaged_record_is_reported_by_line_and_its_shard_run_again(finished, capsys, kind):
    lines = lines_of(finished)
    victim = json.loads(lines[2])["shard"]
    bad = damaged(lines[2], victim)[kind]
    code, out, err = resume_with(finished, capsys, lines[:2] + [bad] + lines[3:])
    assert code == exitcodes.OK, err
    assert SUMMARY in out  # every program once: the damaged record neither counted nor lost
    assert "line 3:" in err and "runs again" in err
    now = records(finished)
    assert len(now) == 4 and now[-1] == victim  # the damaged line kept, its shard re-run and recorded at the end


def test_a_record_with_bytes_that_are_not_utf8_is_damaged(finished, capsys):
    lines = lines_of(finished)
    data = "\n".join(lines[:2]).encode() + b"\n\xff\xfe{\n" + "\n".join(lines[2:]).encode() + b"\n"
    finished.write_bytes(data)
    code = props(finished, "--resume")
    captured = capsys.readouterr()
    assert code == exitcodes.OK and SUMMARY in captured.out and "line 3:" in captured.err


def test_a_cut_last_line_does_not_swallow_the_next_record(finished, capsys):
    lines = lines_of(finished)
    last = lines[-1]
    finished.write_text("\n".join(lines[:-1]) + "\n" + last[: len(last) // 2], encoding="utf-8")  # no newline
    code = props(finished, "--resume")
    captured = capsys.readouterr()
    assert code == exitcodes.OK and SUMMARY in captured.out
    again = lines_of(finished)
    assert again[-2] == last[: len(last) // 2]  # the cut line kept, alone on its line
    assert json.loads(again[-1])["shard"] == json.loads(last)["shard"]  # the shard recorded whole on its own line
    code = props(finished, "--resume")  # and a third run reads the repaired file: one damaged line, nothing re-run
    captured = capsys.readouterr()
    assert code == exitcodes.OK and SUMMARY in captured.out and lines_of(finished) == again


def test_a_shard_recorded_twice_is_counted_once(finished, capsys):
    lines = lines_of(finished)
    code, out, err = resume_with(finished, capsys, lines + [lines[1], lines[2]])
    assert code == exitcodes.OK and SUMMARY in out and "recorded twice" in err


def test_a_shard_recorded_twice_differently_counts_its_first_record(finished, capsys):
    """Issue 52's surviving mutant: the second record of a shard (here: the same programs, all
    undecided) is not the one counted — the summary is the first record's, every program held."""
    lines = lines_of(finished)
    first = json.loads(lines[1])
    other = json.loads(lines[1])
    n = other["result"]["programs"]
    other["result"]["held"] = {"soundness": 0}
    other["result"]["undecided"] = {"soundness": n}
    code, out, err = resume_with(finished, capsys, lines + [json.dumps(other)])
    assert code == exitcodes.OK and SUMMARY in out and "recorded twice" in err and "stopped by a budget" not in out, out
    code, out, err = resume_with(finished, capsys, [lines[0], json.dumps(other)] + lines[1:])
    assert code == exitcodes.BUDGET and SUMMARY not in out and f"({n} stopped by a budget" in out, out  # now it is first
    assert first["result"]["held"]["soundness"] == first["result"]["programs"]


def test_an_empty_file_resumed_starts_the_campaign(tmp_path, capsys):
    """Issue 52's surviving mutant: `--resume` of an empty file is a fresh start (as a missing
    one is), its head written, every program counted once."""
    path = tmp_path / "empty.jsonl"
    path.touch()
    assert props(path, "--resume") == exitcodes.OK and SUMMARY in capsys.readouterr().out
    assert json.loads(lines_of(path)[0])["format"] == checkpoints.FORMAT
    assert sorted(records(path)) == sorted(set(records(path))) and len(records(path)) == 3


def test_a_checkpoint_that_holds_every_shard_runs_nothing(finished, capsys, monkeypatch):
    from goi.campaigns import runner
    from goi.properties import campaign

    calls = []
    monkeypatch.setattr(campaign.PropsWork, "__call__", lambda self, shard: calls.append(shard) or {})
    monkeypatch.setattr(runner, "sample_of", lambda shards: None)  # no estimate (it would run the work)
    assert props(finished, "--resume") == exitcodes.OK
    assert SUMMARY in capsys.readouterr().out and calls == []


# ---- what is not a checkpoint file: refused by name, before anything blocks --------------

def test_a_device_a_fifo_and_a_directory_are_refused_by_name(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, what in (("/dev/zero", "character device"), (fifo, "FIFO"), (tmp_path, "directory")):
        code = props(path, "--resume")
        err = capsys.readouterr().err
        assert code == exitcodes.IO, err
        assert str(path) in err and what in err and "Traceback" not in err


def test_a_checkpoint_larger_than_a_checkpoint_can_be_is_refused(finished, capsys, monkeypatch):
    monkeypatch.setattr(checkpoints, "MAX_BYTES", 100)
    assert props(finished, "--resume") == exitcodes.IO
    assert "more than a checkpoint may have" in capsys.readouterr().err


def test_a_line_longer_than_a_record_can_be_is_damaged(finished, capsys, monkeypatch):
    lines = lines_of(finished)
    monkeypatch.setattr(checkpoints, "MAX_LINE", max(len(lines[0]), len(lines[1])) + 10)
    code, out, err = resume_with(finished, capsys, lines[:2] + ["x" * 5000] + lines[2:])
    assert code == exitcodes.OK and SUMMARY in out and "line 3: longer than" in err


def test_an_unwritable_place_is_an_io_error_naming_the_file(tmp_path, capsys):
    path = tmp_path / "no" / "such" / "dir" / "c.jsonl"
    assert props(path) == exitcodes.IO
    err = capsys.readouterr().err
    assert str(path) in err and "cannot create" in err


# ---- nothing the user has is overwritten ---------------------------------------------------

def test_a_fresh_campaign_never_overwrites_a_file(tmp_path, capsys, finished):
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    for path in (mine, finished):
        before = path.read_bytes()
        assert props(path) == exitcodes.CANT_CREATE
        assert "already there" in capsys.readouterr().err
        assert path.read_bytes() == before


def test_a_link_is_not_followed_even_to_nothing(tmp_path, capsys):
    target = tmp_path / "target.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert props(link) == exitcodes.CANT_CREATE
    assert not target.exists() and "a link" in capsys.readouterr().err


def test_an_empty_file_is_taken(tmp_path, capsys):
    path = tmp_path / "empty.jsonl"
    path.touch()
    assert props(path) == exitcodes.OK and SUMMARY in capsys.readouterr().out
    assert json.loads(lines_of(path)[0])["format"] == checkpoints.FORMAT
    assert sorted(records(path)) == sorted(set(records(path))) and len(records(path)) == 3


def test_resume_of_a_missing_file_starts_the_campaign(tmp_path, capsys):
    path = tmp_path / "new.jsonl"
    assert props(path, "--resume") == exitcodes.OK and SUMMARY in capsys.readouterr().out
    assert stat.S_ISREG(path.stat().st_mode) and len(records(path)) == 3
