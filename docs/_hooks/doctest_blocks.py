"""Griffe extension for the API reference: the docstrings' doctest examples (``>>>`` lines with their
output, as python-chess writes them) become ``pycon`` code blocks, which Markdown would otherwise read
as nested block quotes. Doctest flags (``# doctest: +SKIP``) are dropped from what is shown."""

from __future__ import annotations

import re
from typing import Any

import griffe

FLAG = re.compile(r"\s*#\s*doctest:\s*[+-]\w+(?:\s*,\s*[+-]\w+)*\s*$")


def fence_doctests(text: str) -> str:
    out: list[str] = []
    in_fence = in_example = False
    indent = ""
    for line in text.splitlines():
        stripped = line.strip()
        if in_example and (not stripped or not line.startswith(indent)):
            out.append(f"{indent}```")
            in_example = False
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and not in_example and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_example = True
        if in_example:
            line = FLAG.sub("", line)
            if line.strip() == ">>>":
                continue
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
