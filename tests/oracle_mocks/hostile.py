"""A hostile implementation: for each program, one answer from a list of what a broken or
malicious implementation may print (chosen by a checksum of the program, so the same
program always gets the same answer): absurd nesting, exponents and digits, bytes that are
not UTF-8, NUL, a wrong id, too much output, a crash by signal, nothing at all, a process
left behind in a session of its own. goi must classify every one and never crash."""

import json
import os
import signal
import sys
import zlib

ANSWERS = [
    b"[" * 100_000,
    b'{"value": 1e1000000000}',
    b'{"value": ' + b"9" * 20_000 + b"}",
    b'{"value": "1/0"}',
    b'{"value": [[[[1]]]]}',
    b"\xff\xfe\x00{\"value\": 1}",
    b'{"value": 1, "value": 2}',
    b'{"rejected": ' + b'"x' * 3000 + b'"}',
    b"NaN",
    b"",
    b"x" * (5 * 1024 * 1024),
    "crash",
    "escape",
    "wrong id",
]


def answer_for(text: str) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) % len(ANSWERS)


def emit(choice, request_id=None) -> None:
    if choice == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if choice == "escape":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                import time

                time.sleep(3600)
            os._exit(0)
        os.wait()
        choice = b'{"value": 0}'
    if choice == "wrong id":
        choice = b'{"id": -1, "value": 0}' if request_id is not None else b'{"value": "wrong"}'
    elif request_id is not None and choice.startswith(b"{") and choice.endswith(b"}") and b"\n" not in choice:
        choice = b'{"id": ' + str(request_id).encode() + b", " + choice[1:]
    sys.stdout.buffer.write(choice + b"\n")
    sys.stdout.buffer.flush()


def main() -> None:
    if "--lines" in sys.argv[1:]:
        for line in sys.stdin:
            request = json.loads(line)
            program = request["program"]
            emit(b'{"value": 0}' if program == "0" else ANSWERS[answer_for(program)], request["id"])
        return
    emit(ANSWERS[answer_for(sys.stdin.read())])


main()
