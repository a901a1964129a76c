"""Run the programs of docs/clients.md, in scratch projects made as that page says.

    python .ci/outside/snippets.py DOCS ADDRESS WORK PKGS

A snippet is a fenced block right after a comment ``<!-- snippet: KIND NAME -->``: KIND `python`,
`python-aio` (run by this interpreter, from a folder outside the checkout), `ts` (compiled by the
documented tsconfig in the project the `sh ts-setup` block makes, PKGS standing for its tarball folder),
`go` (one module per program, set up by the `sh go-setup` block), `sh` (those set-up blocks) or `file`
(a file of the TypeScript project: NAME is its name). The documented address (`localhost:50051`,
`127.0.0.1:50051`) becomes ADDRESS. The `behaviour` programs must print the same lines in every
language. Exits non-zero on the first failure, with its output."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SNIPPET = re.compile(r"<!-- snippet: (\S+) (\S+) -->\n```[^\n]*\n(.*?)\n```", re.S)
ADDRESSES = ("localhost:50051", "127.0.0.1:50051")


def run(args: list[str] | str, cwd: Path, what: str, shell: bool = False) -> str:
    done = subprocess.run(args, cwd=cwd, shell=shell, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{what} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def main(docs: Path, address: str, work: Path, pkgs: Path) -> None:
    repo = docs.resolve().parents[1]
    snippets: dict[tuple[str, str], str] = {}
    for kind, name, body in SNIPPET.findall(docs.read_text()):
        for documented in ADDRESSES:
            body = body.replace(documented, address)
        assert (kind, name) not in snippets, f"two snippets {kind} {name}"
        snippets[kind, name] = body + "\n"
    kinds = {kind for kind, _ in snippets}
    assert {"python", "python-aio", "ts", "go", "sh", "file"} <= kinds, f"snippets found: {sorted(snippets)}"
    outputs: dict[str, dict[str, str]] = {}

    # Python and asyncio Python: the installed package, from a folder outside the checkout
    py = work / "docs-py"
    py.mkdir(parents=True)
    for (kind, name), body in snippets.items():
        if kind in ("python", "python-aio"):
            (py / f"{kind}-{name}.py").write_text(body)
            outputs.setdefault(name, {})[kind] = run([sys.executable, f"{kind}-{name}.py"], py, f"{kind} {name}")
            print(f"ok  {kind} {name}")

    # TypeScript: the project the docs' set-up makes (the tarball already packed, in PKGS)
    ts = work / "docs-ts"
    ts.mkdir()
    setup = [line for line in snippets["sh", "ts-setup"].splitlines() if "scripts/pack.sh" not in line]
    run("set -e\n" + "\n".join(setup).replace("/tmp/pkgs", str(pkgs)), ts, "the TypeScript set-up", shell=True)
    (project,) = [p for p in ts.iterdir() if p.is_dir()]
    assert '"type": "module"' in (project / "package.json").read_text(), "the set-up makes an ES module project"
    for (kind, name), body in snippets.items():
        if kind == "file":
            (project / name).write_text(body)
        elif kind == "ts":
            (project / f"{name}.ts").write_text(body)
    run(["npx", "--no-install", "tsc"], project, "tsc with the documented tsconfig.json")
    for (kind, name), _ in snippets.items():
        if kind == "ts":
            outputs.setdefault(name, {})["ts"] = run(["node", f"dist/{name}.js"], project, f"ts {name}")
            print(f"ok  ts {name}")

    # Go: a module per program, set up as the docs say (use-from.sh, then ./go.sh)
    for (kind, name), body in snippets.items():
        if kind != "go":
            continue
        module = work / "docs-go" / name
        module.mkdir(parents=True)
        (module / "main.go").write_text(body)
        setup = snippets["sh", "go-setup"].replace("~/src/mybot", str(module))
        run("set -e\n" + setup, repo, f"the Go set-up of {name}", shell=True)
        outputs.setdefault(name, {})["go"] = run(["./go.sh", "run", "."], module, f"go {name}")
        print(f"ok  go {name}")

    # The same program in each language prints the same lines.
    behaviour = outputs["behaviour"]
    assert sorted(behaviour) == ["go", "python", "python-aio", "ts"], sorted(behaviour)
    assert len(set(behaviour.values())) == 1, "the behaviour programs print differently:\n" + "\n".join(
        f"-- {lang}\n{out}" for lang, out in sorted(behaviour.items())
    )
    lines = behaviour["python"].splitlines()
    assert lines[0] == "PERMISSION_DENIED INVALID_TOKEN: that token holds no seat of this match", lines
    print(f"the behaviour programs print the same {len(lines)} lines in the four languages")
    for name, by_language in sorted(outputs.items()):
        if name != "behaviour":
            print(f"{name}: " + "; ".join(f"{lang}: {out.strip()!r}" for lang, out in sorted(by_language.items())))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
