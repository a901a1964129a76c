"""The shipped tile data has the figures of the physical game."""

from collections import Counter

from hunters.carcassonne.tiles import MENHIR_TILES, NORMAL_TILES, ZONE_TYPES, tile_data

TILES = tile_data()
ZONES = [z for t in TILES for z in t["zones"]]


def test_tile_counts():
    assert len(TILES) == 95
    assert [t["id"] for t in TILES] == list(range(95))
    assert Counter(t["kind"] for t in TILES) == {"start": 1, "normal": 78, "menhir": 16}
    assert TILES[56]["kind"] == "start"
    assert tuple(range(79, 95)) == MENHIR_TILES
    assert len(NORMAL_TILES) == 78 and 56 not in NORMAL_TILES


def test_animals_fish_lakes():
    animals = Counter(a for z in ZONES if z["type"] == "meadow" for a in z["animals"])
    assert animals == {"mammoth": 8, "aurochs": 13, "deer": 33, "tiger": 13}
    assert sum(z.get("fish", 0) for z in ZONES) == 50
    assert sum(1 for z in ZONES if z["type"] == "lake") == 29


def test_forests_and_powers():
    assert sum(1 for z in ZONES if z.get("kind") == "menhir") == 31
    assert sum(1 for z in ZONES if z.get("kind") == "mushrooms") == 2
    powers = {z["power"]: t["id"] for t in TILES for z in t["zones"] if z.get("power")}
    assert powers == {"shaman": 88, "logboat": 93, "hunting_trap": 94, "pit_trap": 92, "wild_fire": 85, "raft": 91}
    mushrooms = sorted(t["id"] for t in TILES for z in t["zones"] if z.get("kind") == "mushrooms")
    assert mushrooms == [79, 87]


def test_sides_are_consistent_with_zones():
    for t in TILES:
        types = {z["local"]: z["type"] for z in t["zones"]}
        for side in t["sides"]:
            if side["type"] == "river":
                m1, r, m2 = side["zones"]
                assert (types[m1], types[r], types[m2]) == ("meadow", "river", "meadow"), t["id"]
            else:
                assert types[side["zone"]] == side["type"], t["id"]
        for z in t["zones"]:
            if z["type"] == "lake":
                assert not any(z["local"] in s.get("zones", [s.get("zone")]) for s in t["sides"])


def test_zone_types_index_every_zone():
    assert len(ZONE_TYPES) == len(ZONES) == 408
    assert ZONE_TYPES[560] == "meadow" and ZONE_TYPES[568] == "lake"
