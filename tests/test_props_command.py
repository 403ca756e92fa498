"""Hypothesis the way Hypothesis documents it: profiles with explicit parents, the profile
chosen by --hypothesis-profile or HYPOTHESIS_PROFILE, and `goi props` (seed, one database key
per property, replay, Redis, Ctrl-C)."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import settings
from hypothesis.database import ExampleDatabase

from goi.cli import main
from goi.properties import coverage, driver, profiles, suite
from goi.properties.runner import Finding
from goi.cli import exitcodes
from goi.semantics.pretty import pretty


def test_ci_extends_hypothesis_ci_and_dev_deep_are_random_with_a_database():
    profiles.register()
    ci, dev, deep = (settings.get_profile(n) for n in ("ci", "dev", "deep"))
    assert ci.derandomize is True and ci.database is None and ci.max_examples == profiles.CONFIGS["ci"].examples
    for p, name in ((dev, "dev"), (deep, "deep")):
        assert p.derandomize is False and p.database is not None
        assert p.max_examples == profiles.CONFIGS[name].examples and p.deadline is None


def _profile_in_subprocess(env_updates, code):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE", "GITHUB_ACTIONS", "TF_BUILD", "BUILDKITE", "CIRCLECI", "CIRRUS_CI", "CODEBUILD_BUILD_ID", "GITLAB_CI", "HEROKU_TEST_RUN_ID", "TEAMCITY_VERSION")}
    env.update(env_updates)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


LOAD = "from hypothesis import settings; from goi.properties.profiles import load_selected; print(load_selected())"


@pytest.mark.parametrize(
    "env,loaded",
    [({}, "ci"), ({"CI": "true"}, "ci"), ({"HYPOTHESIS_PROFILE": "deep"}, "deep"), ({"CI": "true", "HYPOTHESIS_PROFILE": "dev"}, "dev")],
)
def test_the_profile_comes_from_the_environment_never_forced(env, loaded):
    proc = _profile_in_subprocess(env, LOAD)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == loaded


def test_profiles_do_not_inherit_what_was_loaded_when_they_were_registered():
    # In CI Hypothesis loads its derandomised `ci` before our profiles are registered:
    # dev and deep must still be random (machines of a spread deep run explore differently).
    code = LOAD + "; print(settings.get_profile('deep').derandomize, settings.get_profile('dev').database is not None)"
    proc = _profile_in_subprocess({"CI": "true"}, code)
    assert proc.stdout.split() == ["ci", "False", "True"], proc.stderr


def test_an_unknown_profile_is_a_clear_error():
    proc = _profile_in_subprocess({"HYPOTHESIS_PROFILE": "nightly"}, LOAD)
    assert proc.returncode != 0 and "has no goi configuration" in proc.stderr and "'nightly'" in proc.stderr
    with pytest.raises(profiles.UnknownProfile, match="nightly"):
        profiles.config("nightly")


def test_the_redis_database_is_used_when_configured(monkeypatch):
    import redis
    from hypothesis.extra.redis import RedisExampleDatabase

    monkeypatch.setattr(redis.Redis, "ping", lambda self: True)  # a server that answers
    monkeypatch.setenv("GOI_HYPOTHESIS_REDIS", "redis://127.0.0.1:1/0")
    try:
        profiles.register()
        assert isinstance(settings.get_profile("dev").database, RedisExampleDatabase)
        assert isinstance(settings.get_profile("deep").database, RedisExampleDatabase)
        assert settings.get_profile("ci").database is None
    finally:
        monkeypatch.delenv("GOI_HYPOTHESIS_REDIS")
        profiles.register()
    assert not isinstance(settings.get_profile("dev").database, RedisExampleDatabase)


def test_an_unreachable_redis_is_an_io_error_before_the_run():
    env = {**os.environ, "GOI_HYPOTHESIS_REDIS": "redis://127.0.0.1:1/0"}  # nothing listens on port 1
    for argv in (["props", "soundness", "--examples", "2"], ["report", "--examples", "2", "--out", "unused"]):
        proc = subprocess.run([sys.executable, "-m", "goi", *argv], capture_output=True, env=env, timeout=300, text=True)
        assert proc.returncode == exitcodes.BAD_INPUT, proc.stderr[-500:]
        assert proc.stderr.startswith("goi: io error: GOI_HYPOTHESIS_REDIS='redis://127.0.0.1:1/0': cannot reach the Redis server")
        assert "failed" not in proc.stderr and proc.stdout == ""


LOSE_REDIS = """
import sys, redis
from hypothesis.extra.redis import RedisExampleDatabase
def lost(self, *args):
    raise redis.exceptions.ConnectionError("Connection reset by peer")
redis.Redis.ping = lambda self: True  # it answered once, then went away
RedisExampleDatabase.fetch = RedisExampleDatabase.save = lost
from goi.cli import main
sys.exit(main(["props", "soundness", "--profile", "dev", "--examples", "2"]))
"""


def test_a_redis_lost_during_the_run_is_an_io_error_not_a_failed_property():
    env = {**os.environ, "GOI_HYPOTHESIS_REDIS": "redis://127.0.0.1:1/0"}
    proc = subprocess.run([sys.executable, "-c", LOSE_REDIS], capture_output=True, env=env, timeout=300, text=True)
    assert proc.returncode == exitcodes.BAD_INPUT, proc.stderr[-500:]
    assert proc.stderr.splitlines()[-1] == ("goi: io error: the shared example database (GOI_HYPOTHESIS_REDIS) failed "
                                            "during the run: ConnectionError: Connection reset by peer")


def _coverage_of(name, profile, examples, seed):
    with coverage.recording() as recorder:
        result = driver.run_property(name, profile, examples, seed)
    assert result.status == "passed", result.finding
    return recorder.summary()["transitions"]


def test_seed_n_seeds_with_n():
    one = _coverage_of("soundness", "dev", 15, seed=1)
    assert _coverage_of("soundness", "dev", 15, seed=1) == one
    assert _coverage_of("soundness", "dev", 15, seed=2) != one


class RecordingDatabase(ExampleDatabase):
    """An in-memory example database that remembers under which keys it was written."""

    def __init__(self):
        super().__init__()
        self.data = {}

    def save(self, key, value):
        self.data.setdefault(key, set()).add(value)

    def fetch(self, key):
        yield from list(self.data.get(key, ()))

    def delete(self, key, value):
        self.data.get(key, set()).discard(value)

    def move(self, src, dest, value):
        self.delete(src, value)
        self.save(dest, value)


def always_failing(prop):
    def fail(term, config, **rest):
        raise Finding(prop, "a deliberate failure", pretty(term))

    return fail


def with_check(monkeypatch, name: str, check) -> None:
    """The suite with property `name` checked by `check` (its declaration otherwise kept)."""
    from dataclasses import replace

    declared = suite._declared()
    monkeypatch.setattr(suite, "_declared", lambda: tuple(replace(p, check=check) if p.name == name else p for p in declared))


def test_every_property_has_its_own_database_key(monkeypatch):
    db = RecordingDatabase()
    settings.register_profile("goi-test-recording", parent=settings.get_profile("dev"), database=db)
    profiles.register_config("goi-test-recording", profiles.CONFIGS["ci"])
    with_check(monkeypatch, "soundness", always_failing("soundness"))
    with_check(monkeypatch, "agreement", always_failing("agreement"))
    for name in ("soundness", "agreement"):
        assert driver.run_property(name, "goi-test-recording", 5).status == "failed"
    primary = {k for k in db.data if not k.endswith((b".secondary", b".pareto"))}
    assert len(primary) == 2, db.data.keys()


def test_a_failure_prints_the_program_the_blob_and_a_replay_command(monkeypatch, capsys):
    with_check(monkeypatch, "soundness", always_failing("soundness"))
    code = main(["props", "soundness", "--profile", "ci", "--examples", "5"])
    out = capsys.readouterr().out
    assert code == exitcodes.STUCK
    assert "[soundness] a deliberate failure" in out and "program: " in out
    replay = next(line.split("replay: ", 1)[1] for line in out.splitlines() if "replay: " in line)
    assert replay.startswith("goi props soundness --profile ci --replay ")
    program = next(line.split("program: ", 1)[1] for line in out.splitlines() if "program: " in line)
    code = main(replay.split()[1:] + ["--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.STUCK and data["properties"]["soundness"]["program"] == program
    # the bug fixed: the same replay says the failure is gone, and that is a success
    monkeypatch.undo()
    code = main(replay.split()[1:])
    out, err = capsys.readouterr()
    assert code == exitcodes.OK and "fixed" in out and "the failure it recorded is gone" in out
    assert "Failing test case" not in out + err and "DidNotReproduce" not in out + err


def test_ctrl_c_stops_cleanly_with_a_summary_of_what_finished(monkeypatch, capsys):
    def interrupt(term, config):
        raise KeyboardInterrupt

    with_check(monkeypatch, "invariants", interrupt)
    code = main(["props", "soundness", "invariants", "gc", "--profile", "ci", "--examples", "3", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == exitcodes.INTERRUPTED and "Traceback" not in err and "You can reproduce" not in out + err
    assert data["status"] == "interrupted" and data["properties"]["soundness"]["status"] == "passed"
    assert data["properties"]["invariants"]["status"] == "interrupted" and data["not_run"] == ["gc"]


@pytest.mark.parametrize("argv", [["--examples", "-1"], ["--examples", "0"], ["--examples", "x"], ["--profile", "nightly"], ["nonsense"], ["--replay", "AAAA"]])
def test_props_usage_errors_exit_2(capsys, argv):
    code = main(["props", *argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.USAGE and data["error"]["kind"] == "usage"


def test_long_runs_show_their_progress(monkeypatch, capfd):
    monkeypatch.setenv("GOI_PROGRESS", "1")
    monkeypatch.setenv("GOI_PROGRESS_SECONDS", "0")
    monkeypatch.delenv("GOI_PROGRESS_FILE", raising=False)  # a deep run watched through a file sets it
    assert driver.run_property("soundness", "ci", 5).status == "passed"
    lines = [line for line in capfd.readouterr().err.splitlines() if line.startswith("[goi] soundness: ")]
    assert lines and lines[-1].startswith("[goi] soundness: 5/5 examples, ") and "left" in lines[-1]
    monkeypatch.setenv("GOI_PROGRESS", "0")
    driver.run_property("soundness", "ci", 5)
    assert "[goi]" not in capfd.readouterr().err


def test_progress_can_go_to_a_file(monkeypatch, tmp_path):
    log = tmp_path / "progress.log"
    monkeypatch.setenv("GOI_PROGRESS", "1")
    monkeypatch.setenv("GOI_PROGRESS_SECONDS", "0")
    monkeypatch.setenv("GOI_PROGRESS_FILE", str(log))
    assert driver.run_property("gc", "ci", 4).status == "passed"
    assert log.read_text().splitlines()[-1].startswith("[goi] gc: 4/4 examples, ")


def test_a_real_ctrl_c_stops_goi_props_cleanly():
    """SIGINT reaches the main thread while the properties run on the deep-stack worker: it is
    passed on, and the run ends with its summary (CPython's interrupted Thread.join is avoided)."""
    import os
    import signal

    from conftest import hear_ctrl_c

    env = {**os.environ, "GOI_PROGRESS": "1", "GOI_PROGRESS_SECONDS": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "goi", "props", "--profile", "dev"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, preexec_fn=hear_ctrl_c)
    first = os.read(proc.stderr.fileno(), 1)  # a progress line has begun: the properties are running
    assert first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    err = first + err
    assert b"You can reproduce" not in out + err
    assert proc.returncode == exitcodes.INTERRUPTED, err.decode()[-2000:]
    assert b"interrupted" in out and b"not run: " in out and b"Traceback" not in err
