"""IEEE floating point (within a tolerance), with one bug: x/0 is Infinity (or NaN for 0/0),
as JavaScript and C compute it, where the calculus has x/0 = 0 (div-zero)."""

from _zoo import bugs, correctly, serve

ON = bugs("div-zero")


class Floats:
    name = "floats"
    division = "total"

    def const(self, value):
        return float(value)

    def zero(self):
        return 0.0

    def one(self):
        return 1.0

    def add(self, x, y):
        return x + y

    def sub(self, x, y):
        return x - y

    def mul(self, x, y):
        return x * y

    def div(self, x, y):
        if y == 0:
            return (float("nan") if x == 0 else float("inf") * (1 if x > 0 else -1)) if "div-zero" in ON else 0.0
        return x / y

    def show(self, x):
        return repr(x)


def respond(text: str) -> dict:
    answer = correctly(text, field=Floats())
    value = answer.get("value")
    if isinstance(value, float) and value != value:
        return {"value": "NaN"}
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return {"value": "Infinity" if value > 0 else "-Infinity"}
    return answer


serve(respond)
