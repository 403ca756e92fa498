"""Never rejects: a program our type checker refuses gets the answer 0 (a lenient front
end); correct on well-typed programs."""

from common import correctly, serve

import goi


def respond(text: str) -> dict:
    try:
        goi.check(text)
    except goi.TypeCheckError:
        return {"value": "0"}
    return correctly(text)


serve(respond)
