"""Reads another notation than ours: a `λ` is a syntax error to it (it wants `fun x ->`), as
its parser would say; correct on the programs without one."""

from common import correctly, serve


def respond(text: str) -> dict:
    if "λ" in text:
        return {"rejected": f"syntax error at 1:{text.index('λ') + 1}: unexpected character 'λ'"}
    return correctly(text)


serve(respond)
