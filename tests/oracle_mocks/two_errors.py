"""Two bugs that report themselves differently: an `{"error": …}` naming the position of the
first subtraction, and another naming the operands of the first product (so one bug's
messages differ only in numbers and names, which fold to one signature). A program with both
reports the subtraction. Correct otherwise."""

import re

from common import correctly, serve


def respond(text: str) -> dict:
    if " - " in text:
        return {"error": f"subtraction at column {text.index(' - ') + 2} is not supported"}
    product = re.search(r"(\S+) \* (\S+)", text)
    if product:
        return {"error": f"product of '{product.group(1)}' by '{product.group(2)}' overflows in multiplier 0x7f3a"}
    return correctly(text)


serve(respond)
