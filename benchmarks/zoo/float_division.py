"""IEEE floating point (within a tolerance), with one bug: x/0 is Infinity (or NaN for 0/0),
as JavaScript and C compute it, where the calculus has x/0 = 0 (div-zero)."""

from _zoo import FloatField, bugs, correctly, serve

ON = bugs("div-zero")


class Floats(FloatField):
    def div(self, x, y):
        if y == 0 and "div-zero" in ON:  # planted: what JavaScript and C compute
            return float("nan") if x == 0 else float("inf") * (1 if x > 0 else -1)
        return super().div(x, y)


def respond(text: str) -> dict:
    answer = correctly(text, field=Floats())
    value = answer.get("value")
    if isinstance(value, float) and value != value:
        return {"value": "NaN"}
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return {"value": "Infinity" if value > 0 else "-Infinity"}
    return answer


serve(respond)
