"""An implementation that answers from a script: the JSON file named by GOI_SCRIPT maps a
program's text to what to do — {"print": TEXT} prints TEXT as the answer (with --lines, TEXT
must be a JSON object: the request's id is put in it), {"exit": N, "stderr": TEXT} dies with
that status, {"hang": true} never answers. The warm-up program 0 is answered 0; a program
not in the script is an error. For tests of how goi judges each kind of answer."""

import json
import os
import sys
import time


def act(script: dict, program: str, request_id=None) -> None:
    what = script.get(program)
    if what is None:
        what = {"print": '{"value": 0}'} if program == "0" else {"print": '{"error": "not in the script"}'}
    if what.get("hang"):
        time.sleep(3600)
    if "exit" in what:
        sys.stderr.write(what.get("stderr", "") + "\n")
        sys.stderr.flush()
        os._exit(what["exit"])
    text = what["print"]
    if request_id is not None:
        text = '{"id": %d, ' % request_id + text.strip()[1:]  # as printed: its numbers not read as floats
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    with open(os.environ["GOI_SCRIPT"], encoding="utf-8") as handle:
        script = json.load(handle)
    if "--lines" in sys.argv[1:]:
        for line in sys.stdin:
            request = json.loads(line)
            act(script, request["program"], request["id"])
        return
    act(script, sys.stdin.read())


main()
