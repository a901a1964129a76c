"""Conformance: the published vectors other engines check themselves against, and a runner that
plays another engine (a child process speaking a small JSON-lines protocol) against ours.

- `hunters.conformance.vectors`: the versioned vector files of every game with a suite;
- `hunters.conformance.protocol`: the protocol, both sides;
- `hunters.conformance.adapter`: our own engine behind the protocol (``python -m
  hunters.conformance.adapter``), the protocol's example;
- `hunters.conformance.runner`: `hunters conformance --engine CMD`;
- `hunters.conformance.coverage`: the coverage map, rule by rule the vectors that catch an engine
  breaking it.

Nothing here names a game: games and their formats come from the registry (docs/conformance.md)."""
