"""The plugin of jaeger_sammler: what the shared layers find through the registry."""

from hunters.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="jaeger_sammler",
    game="hunters.jaeger.game:Game",
    wire="hunters.jaeger.wire:Adapter",
    value="hunters.jaeger.bots:value",
    strategy="hunters.jaeger.strategy",
    conformance="hunters.jaeger.conformance",
)
