"""Two bugs reporting themselves with different messages (`{"error": …}`): subtractions
(sub-error) and products (mul-error), each message carrying the program's own text and
numbers. A program with both reports the subtraction."""

import re

from _zoo import bugs, correctly, serve

ON = bugs("sub-error", "mul-error")


def respond(text: str) -> dict:
    if "sub-error" in ON and " - " in text:
        return {"error": f"subtraction at column {text.index(' - ') + 2} is not supported"}
    product = re.search(r"(\S+) \* (\S+)", text)
    if "mul-error" in ON and product:
        return {"error": f"product of '{product.group(1)}' by '{product.group(2)}' overflows in multiplier 0x7f3a"}
    return correctly(text)


serve(respond)
