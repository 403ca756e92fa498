"""Crashes on any program with a subtraction (as crash_on_subtraction.py), correct otherwise,
and stalls once: the first program it is given after the file GOI_MOCK_STALL_MARK does not
exist yet (the file is then made) takes GOI_MOCK_STALL_SECONDS more, either asleep
(GOI_MOCK_STALL=sleep: the wall clock passes and no CPU time is used, as on a machine so busy
that the implementation is given none) or busy (GOI_MOCK_STALL=spin: CPU time is used, as a
real hang does, once). Without GOI_MOCK_STALL_MARK it never stalls."""

import os
import time

from common import correctly, serve


def stall() -> None:
    mark = os.environ.get("GOI_MOCK_STALL_MARK")
    if not mark:
        return
    try:
        os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    seconds = float(os.environ.get("GOI_MOCK_STALL_SECONDS", "2"))
    if os.environ.get("GOI_MOCK_STALL", "sleep") == "sleep":
        time.sleep(seconds)
        return
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def respond(text: str) -> dict:
    if text.strip() != "0":  # not the persistent session's warm-up
        stall()
    if " - " in text:
        raise NotImplementedError("subtraction is not implemented")
    return correctly(text)


serve(respond)
