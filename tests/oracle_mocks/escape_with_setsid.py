"""A correct implementation that leaves a process behind for each program: a double fork
and setsid(), so the sleeper is in a session and process group of its own and its parent
is gone. It writes the sleeper's pid to the folder named by ESCAPEE_DIR."""

import os
import time

from common import correctly, serve


def escape() -> None:
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            time.sleep(3600)
            os._exit(0)
        with open(os.path.join(os.environ["ESCAPEE_DIR"], f"{pid}.pid"), "w") as handle:
            handle.write(str(pid))  # written before the answer: the test knows every sleeper
        os._exit(0)
    os.wait()


def respond(text: str) -> dict:
    escape()
    return correctly(text)


serve(respond)
