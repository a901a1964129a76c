"""Helpers shared by the benchmark suites."""


class Cycle:
    """Call f on each position in turn (one position per benchmark call)."""

    def __init__(self, items, f):
        self.items, self.f, self.i = items, f, 0

    def __call__(self):
        self.i = (self.i + 1) % len(self.items)
        return self.f(self.items[self.i])
