"""``python -m hunters.examples``: list the shipped examples with their files, or ``copy DIR`` them
out to read and change (see the package docstring)."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from . import EXAMPLES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hunters.examples", description=(__doc__ or "").split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    copy = sub.add_parser("copy", help="copy every example into DIR (made if missing; existing files are kept)")
    copy.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parent
    if args.command == "copy":
        args.dir.mkdir(parents=True, exist_ok=True)
        for name in EXAMPLES:
            target = args.dir / f"{name}.py"
            if target.exists():
                print(f"kept {target} (exists)")
                continue
            shutil.copyfile(here / f"{name}.py", target)
            print(f"copied {target}")
        return 0
    for name, what in EXAMPLES.items():
        print(f"hunters.examples.{name}: {what}\n    {here / f'{name}.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
