"""Computes in IEEE floating point (the machine over a float field): right within a
tolerance, wrong exactly."""

from common import correctly, serve


class FloatField:
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
        return 0.0 if y == 0 else x / y

    def show(self, x):
        return repr(x)


serve(lambda text: correctly(text, field=FloatField()))
