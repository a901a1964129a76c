"""The plugin of carcassonne_hg: what the shared layers find through the registry."""

from hunters.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="carcassonne_hg",
    game="hunters.carcassonne.game:Game",
    wire="hunters.carcassonne.wire:Adapter",
    value="hunters.carcassonne.bots:value",
    strategy="hunters.carcassonne.strategy",
    conformance="hunters.carcassonne.conformance",
)
