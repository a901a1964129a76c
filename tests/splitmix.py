"""The documented seeded shuffle, written out independently of the cores (a test oracle):
splitmix64, unbiased bounded draws by rejection, Fisher-Yates from the end, one stream for all piles."""

MASK = 2**64 - 1


def shuffle_piles(seed: int, *piles: list) -> list[list]:
    """Each pile shuffled in turn from one splitmix64 stream started at `seed`."""
    state = seed

    def nxt() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(n: int) -> int:
        threshold = (2**64 - n) % n
        r = nxt()
        while r < threshold:
            r = nxt()
        return r % n

    out = []
    for pile in piles:
        tiles = list(pile)
        for i in range(len(tiles) - 1, 0, -1):
            j = below(i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        out.append(tiles)
    return out
