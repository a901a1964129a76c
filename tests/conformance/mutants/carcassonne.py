"""carcassonne_hg's reference engine (tests/reference/carcassonne_ref.py behind the conformance
protocol) and its mutants: for each rule of the game's coverage map, the oracle with that rule, and
nothing else, mis-implemented (`MUTANTS`, in the catalogue's order)."""

from __future__ import annotations

from typing import Any

from tests.reference import carcassonne_ref as ref
from tests.reference.carcassonne_ref import TILES, Board, RefGame, zone_info, zone_type

from . import CONTROL, RefEngine

GAME = "carcassonne_hg"


class Engine(RefEngine):
    game_id = GAME
    game_class: type[RefGame] = RefGame

    def start(self, record: dict[str, Any]) -> RefGame:
        return self.game_class(record["players"], record["normal_deck"], record["menhir_deck"])

    def move_to_ref(self, move: Any) -> tuple:
        occ = move.get("occupant")
        kind, zone = (None, None) if occ is None else (occ["kind"], occ["zone"])
        return (move["x"], move["y"], move["rotation"], kind, zone, move.get("retake"))

    def move_json(self, move: tuple) -> Any:
        x, y, rotation, kind, zone, retake = move
        occupant = None if kind is None else {"kind": kind, "zone": zone}
        return {"x": x, "y": y, "rotation": rotation, "occupant": occupant, "retake": retake}

    def event_json(self, event: tuple) -> Any:
        decision, reason, seats, points, feature = event
        return {"decision": decision, "reason": reason, "seats": list(seats), "points": points, "feature": feature}

    def position(self) -> dict[str, Any]:
        game = self.game
        out = {"player": game.player, "over": game.is_over, "scores": list(game.scores)}
        if game.is_over:
            out["winners"] = self.winners(game.scores)
        return out

    @staticmethod
    def winners(scores: list[int]) -> list[int]:
        """Highest total wins; tied seats share the victory."""
        return [s for s, v in enumerate(scores) if v == max(scores)]

    def is_over(self, game: RefGame) -> bool:
        return bool(game.is_over)


def engine(rule: str = CONTROL) -> Engine:
    made = Engine()
    if rule != CONTROL:
        if rule not in MUTANTS:
            raise KeyError(f"no mutant breaks {rule!r}")
        if rule in WINNER_MUTANTS:
            made.winners = WINNER_MUTANTS[rule]  # type: ignore[method-assign]
        else:
            made.game_class = MUTANTS[rule]
    return made


# -- helpers ----------------------------------------------------------------------------------


def _occupied_zones(game: RefGame) -> list[int]:
    """The zones of the tile in hand."""
    return sorted(game.tile * 10 + loc for loc in TILES[game.tile]["zones"])


def _bare(moves: set) -> set:
    """The placements (with their retake) that the legal moves are made of."""
    return {(x, y, r, None, None, rt) for x, y, r, _, _, rt in moves}


# -- placement --------------------------------------------------------------------------------


class _DiagonalBoard(Board):
    def frontier(self):
        out = super().frontier()
        for x, y in self.cells:
            for dx in (-1, 1):
                for dy in (-1, 1):
                    if (x + dx, y + dy) not in self.cells:
                        out.add((x + dx, y + dy))
        return out


class PlacementAdjacent(RefGame):
    """A tile may also go on a position touching placed tiles only at a corner."""

    board_class = _DiagonalBoard


class _NoWestBoard(Board):
    def _clash(self, pos, tile, rot, d):
        nb = self.cells.get(ref.step(pos, d))
        return nb is not None and self.side(tile, rot, d)["type"] != self.side(nb[0], nb[1], (d + 2) % 4)["type"]

    def fits(self, pos, tile, rot):
        return not any(self._clash(pos, tile, rot, d) for d in range(3))  # the side facing west is not checked

    def links(self, gid, ftype):
        """Sides that do not match (placed through the missing check) join nothing: open edges."""
        pos = self.where[gid // 10]
        rot = self.cells[pos][1]
        hidden = {}
        for d in range(4):
            if self._clash(pos, gid // 10, rot, d):
                near = ref.step(pos, d)
                hidden[near] = self.cells.pop(near)
        try:
            return super().links(gid, ftype)
        finally:
            self.cells.update(hidden)


class SidesMatch(RefGame):
    """The side facing west is not checked against its neighbour."""

    board_class = _NoWestBoard


class _CounterBoard(Board):
    def side(self, tile, rot, d):
        return TILES[tile]["sides"][(d + rot) % 4]


class Rotation(RefGame):
    """Tiles turn counter-clockwise: the side facing d is the unrotated side (d + r) mod 4."""

    board_class = _CounterBoard


class _SameBankBoard(Board):
    @staticmethod
    def banks(mine, theirs):
        return ((mine[0], theirs[0]), (mine[2], theirs[2]))


class RiverBanks(RefGame):
    """Across two river sides, m1 touches m1 (and m2 m2) instead of m1 touching m2."""

    board_class = _SameBankBoard


class _TurnedStartBoard(Board):
    def put(self, pos, tile, rot):
        super().put(pos, tile, 1 if tile == ref.START_TILE else rot)


class StartTile(RefGame):
    """The start tile lies turned once."""

    board_class = _TurnedStartBoard


class FirstSeat(RefGame):
    """Seat 1 plays first."""

    def __init__(self, *args):
        super().__init__(*args)
        self.player = 1


class DiscardUnplaceable(RefGame):
    """A normal tile that fits nowhere ends the game instead of being discarded."""

    def _draw(self, pile):
        if pile is self.normal_pile and pile and not self.board.placements(pile[0]):
            self.discards.append(pile.pop(0))
            pile.clear()
            return None
        return super()._draw(pile)


# -- occupying --------------------------------------------------------------------------------


class OccupantOptional(RefGame):
    """A placement must carry an occupant when one fits."""

    def legal_moves(self):
        moves = super().legal_moves()
        placed = {(x, y, r, rt) for x, y, r, k, _, rt in moves if k is not None}
        return {m for m in moves if m[3] is not None or (m[0], m[1], m[2], m[5]) not in placed}


class MeepleZones(RefGame):
    """A meeple may also go on a lake."""

    def legal_moves(self):
        moves = super().legal_moves()
        if self.is_over:
            return moves
        lakes = [g for g in _occupied_zones(self) if zone_type(g) == "lake"]
        for x, y, r, _, _, rt in _bare(moves):
            if self.meeples[self.player] + (rt is not None) > 0:
                moves |= {(x, y, r, "meeple", g, rt) for g in lakes}
        return moves


class MeepleFeatureFree(RefGame):
    """The feature is checked before the placement's merges: any forest, river or meadow zone of the
    new tile is free."""

    def legal_moves(self):
        moves = super().legal_moves()
        if self.is_over:
            return moves
        zones = [g for g in _occupied_zones(self) if zone_type(g) in ("forest", "river", "meadow")]
        for x, y, r, _, _, rt in _bare(moves):
            if self.meeples[self.player] + (rt is not None) > 0:
                moves |= {(x, y, r, "meeple", g, rt) for g in zones}
        return moves


class MeepleSupply(RefGame):
    """Six meeples a seat."""

    meeples_per_seat = 6


class HutZones(RefGame):
    """A hut may not go on a lake."""

    def legal_moves(self):
        return {m for m in super().legal_moves() if not (m[3] == "hut" and zone_type(m[4]) == "lake")}


class HutSystemFree(RefGame):
    """A hut may go on a river system that holds a hut already."""

    def legal_moves(self):
        moves = super().legal_moves()
        if self.is_over or self.huts[self.player] <= 0:
            return moves
        zones = [g for g in _occupied_zones(self) if zone_type(g) in ("river", "lake")]
        for x, y, r, _, _, rt in _bare(moves):
            moves |= {(x, y, r, "hut", g, rt) for g in zones}
        return moves


class HutSupply(RefGame):
    """Four huts a seat."""

    huts_per_seat = 4


class PiecesIndependent(RefGame):
    """A hut blocks meeples: no fisher on a river of a system that holds a hut."""

    def legal_moves(self):
        moves = super().legal_moves()
        out = set()
        for m in moves:
            x, y, r, kind, zone, _ = m
            if kind == "meeple" and zone_type(zone) == "river":
                system, _ = self.board.with_tile((x, y), self.tile, r).feature(zone, "system")
                if any(z in self.board_huts for z in system):
                    continue
            out.add(m)
        return out


# -- the shaman -------------------------------------------------------------------------------


class ShamanRetake(RefGame):
    """The shaman takes nothing back."""

    def retake_candidates(self, seat):
        return []


class RetakeOwnMeeple(RefGame):
    """The shaman's placer may take back any seat's meeple (into their own supply)."""

    def retake_candidates(self, seat):
        return sorted(self.board_meeples)


class RetakeNotHut(RefGame):
    """The shaman's placer may take back one of their huts too."""

    def retake_candidates(self, seat):
        return sorted([*super().retake_candidates(seat), *(g for g, s in self.board_huts.items() if s == seat)])

    def _retake(self, seat, zone):
        if zone in self.board_huts:
            del self.board_huts[zone]
            self.huts[seat] += 1
        else:
            super()._retake(seat, zone)


class RetakeRefillsSupply(RefGame):
    """The meeple supply is checked before the retake: with none in supply, the meeple taken back
    cannot be placed again this turn."""

    def legal_moves(self):
        moves = super().legal_moves()
        if self.is_over or self.meeples[self.player] > 0:
            return moves
        return {m for m in moves if not (m[3] == "meeple" and m[5] is not None)}


class RetakeFreesFeature(RefGame):
    """The feature check ignores the retake: the feature of the meeple taken back stays occupied."""

    def legal_moves(self):
        out = set()
        for m in super().legal_moves():
            x, y, r, kind, zone, retake = m
            if kind == "meeple" and retake is not None:
                feature, _ = self.board.with_tile((x, y), self.tile, r).feature(zone, zone_type(zone))
                if retake in feature:
                    continue
            out.add(m)
        return out


# -- immediate effects ------------------------------------------------------------------------


class Logboat(RefGame):
    """The logboat scores 1 per lake of its system."""

    def _score(self, decision, reason, seats, points, feature):
        super()._score(decision, reason, seats, points // 2 if reason == "logboat" else points, feature)


class HuntingTrap(RefGame):
    """The hunting trap scores the animals of its whole meadow, not only the 3x3 tiles around it."""

    def _immediate_effect(self, tile, seat, dec, pos):
        if tile != ref.HUNTING_TRAP_ZONE // 10:
            return super()._immediate_effect(tile, seat, dec, pos)
        meadow, _ = self.board.feature(ref.HUNTING_TRAP_ZONE, "meadow")
        animals = [
            (g, i, a)
            for g in sorted(meadow)
            for i, a in enumerate(zone_info(g)["animals"])
            if (g, i) not in self.covered
        ]
        tigers = sum(1 for _, _, a in animals if a == "tiger")
        self._score(dec, "hunting_trap", (seat,), self.animal_points(animals, tigers), self.feature_id(meadow))
        self.covered.update((g, i) for g, i, _ in animals)
        return None


class HuntingTrapEventForZero(RefGame):
    """A hunting trap that scores 0 gives no event."""

    def _score(self, decision, reason, seats, points, feature):
        if not (reason == "hunting_trap" and points == 0):
            super()._score(decision, reason, seats, points, feature)


class HuntingTrapCovers(RefGame):
    """The animals the hunting trap scored stay uncovered."""

    def _immediate_effect(self, tile, seat, dec, pos):
        covered = set(self.covered)
        super()._immediate_effect(tile, seat, dec, pos)
        self.covered = covered


# -- features closed during play --------------------------------------------------------------


class ForestPoints(RefGame):
    """A closed forest scores 1 per tile."""

    def forest_points(self, zones):
        return super().forest_points(zones) - len({g // 10 for g in zones})


class TileCountsOnce(RefGame):
    """A feature counts each of its zones, so a tile it crosses twice counts twice."""

    def forest_points(self, zones):
        return super().forest_points(zones) - 2 * len({g // 10 for g in zones}) + 2 * len(zones)

    def river_points(self, zones):
        return super().river_points(zones) - len({g // 10 for g in zones}) + len(zones)


class ForestMushrooms(RefGame):
    """Mushrooms add nothing."""

    def forest_points(self, zones):
        return 2 * len({g // 10 for g in zones})


class RiverPoints(RefGame):
    """A closed river scores no lake's fish."""

    def river_points(self, zones):
        return len({g // 10 for g in zones}) + sum(zone_info(g)["fish"] for g in zones)


class RiverLakeOnce(RefGame):
    """A lake counts once per river zone that runs into it."""

    def river_points(self, zones):
        ends = [(g // 10) * 10 + zone_info(g)["lake"] for g in zones if zone_info(g)["lake"] is not None]
        fish = sum(zone_info(g)["fish"] for g in zones) + sum(zone_info(lake)["fish"] for lake in ends)
        return len({g // 10 for g in zones}) + fish


class _OpenDeadEndBoard(Board):
    def links(self, gid, ftype):
        out, is_open = super().links(gid, ftype)
        if ftype == "river" and zone_info(gid)["lake"] is None:
            tile, local = divmod(gid, 10)
            rot = self.cells[self.where[tile]][1]
            sides = [self.side(tile, rot, d) for d in range(4)]
            if sum(1 for s in sides if s["type"] == "river" and s["zones"][1] == local) == 1:
                is_open = True
        return out, is_open


class RiverEndsOnTile(RefGame):
    """A river that touches one side without a lake stays open at that end."""

    board_class = _OpenDeadEndBoard


class ScoreNeedsMeeple(RefGame):
    """A closed feature without meeples still gives an event (to nobody)."""

    def _score_closed(self, dec, closed):
        for fid in sorted(closed):
            ftype, zones = closed[fid]
            if any(g in self.board_meeples for g in zones):
                super()._score_closed(dec, {fid: closed[fid]})
            else:
                points = self.forest_points(zones) if ftype == "forest" else self.river_points(zones)
                self._score(dec, ftype, (), points, fid)


class Majority(RefGame):
    """Every seat with a meeple on the feature scores, not only the majority."""

    def majority(self, counts):
        return tuple(sorted(s for s, c in counts.items() if c > 0))


class MajorityTie(RefGame):
    """On a tie the lowest tied seat alone scores."""

    def majority(self, counts):
        return super().majority(counts)[:1]


class MeeplesGoHome(RefGame):
    """The meeples of a scored feature are lost instead of going back to supply."""

    def _score_closed(self, dec, closed):
        supply = list(self.meeples)
        super()._score_closed(dec, closed)
        self.meeples = supply


class ScoreOrder(RefGame):
    """Features closed together are scored by descending feature id."""

    def _score_closed(self, dec, closed):
        for fid in sorted(closed, reverse=True):
            super()._score_closed(dec, {fid: closed[fid]})


class FeatureId(RefGame):
    """A feature's id is its largest zone id."""

    def feature_id(self, zones):
        return max(zones)


# -- extra turns and turn order ---------------------------------------------------------------


def _menhir_forests(closed: dict) -> list[int]:
    return [
        fid
        for fid, (ftype, zones) in sorted(closed.items())
        if ftype == "forest" and any(zone_info(g)["kind"] == "menhir" for g in zones)
    ]


class MenhirExtraTurn(RefGame):
    """No extra turns."""

    def earns_extra_turn(self, closed):
        return False


class ExtraTurnNeedsMenhirForest(RefGame):
    """Any closed forest earns an extra turn."""

    def earns_extra_turn(self, closed):
        return not self.is_extra and any(ftype == "forest" for ftype, _ in closed.values())


class NoExtraTurnFromAnExtraTurn(RefGame):
    """An extra turn that closes a forest with a menhir earns another."""

    def earns_extra_turn(self, closed):
        return bool(_menhir_forests(closed))


class OneExtraTurnPerTurn(RefGame):
    """One extra turn per menhir forest closed."""

    owed = 0

    def earns_extra_turn(self, closed):
        if not self.is_extra:
            self.owed = len(_menhir_forests(closed))
        if self.owed:
            self.owed -= 1
            return True
        return False


class ExtraTurnToThePlacer(RefGame):
    """The extra turn goes to the majority (the lowest of a tie) of the first menhir forest closed,
    when it holds meeples; the turn order goes on from that seat."""

    to = None

    def earns_extra_turn(self, closed):
        earned = super().earns_extra_turn(closed)
        self.to = None
        if earned:
            zones = closed[_menhir_forests(closed)[0]][1]
            counts: dict[int, int] = {}
            for g in zones:
                if g in self.board_meeples:
                    counts[self.board_meeples[g]] = counts.get(self.board_meeples[g], 0) + 1
            if counts:
                self.to = self.majority(counts)[0]
        return earned

    def _advance(self, earned_extra):
        if earned_extra and self.to is not None:
            self.player = self.to
        super()._advance(earned_extra)


class MenhirDiscard(RefGame):
    """A menhir tile that fits nowhere ends the extra turn instead of being discarded for the next."""

    def _draw(self, pile):
        if pile is self.menhir_pile and pile and not self.board.placements(pile[0]):
            self.discards.append(pile.pop(0))
            return None
        return super()._draw(pile)


class NoMenhirTileNoExtraTurn(RefGame):
    """With the menhir pile used up, the extra turn is played with a normal tile."""

    def _advance(self, earned_extra):
        if earned_extra and not self.menhir_pile:
            self._legal = None
            tile = self._draw(self.normal_pile)
            if tile is not None:
                self.tile, self.is_extra = tile, True
                return
        super()._advance(earned_extra)


class ExtraTurnAfterLastNormalTile(RefGame):
    """The game ends with the last normal tile, even when it earned an extra turn."""

    def _advance(self, earned_extra):
        super()._advance(earned_extra and bool(self.normal_pile))


class NextSeat(RefGame):
    """Seats play in decreasing order."""

    def next_seat(self):
        return (self.player - 1) % self.players


# -- the end ----------------------------------------------------------------------------------


class GameEnd(RefGame):
    """The game goes on with the menhir pile when the normal pile is used up."""

    def _start_normal_turn(self):
        if self.normal_pile or not self.menhir_pile:
            return super()._start_normal_turn()
        self.is_extra = False
        self.tile = self._draw(self.menhir_pile)
        if self.tile is None:
            self._final_scoring()
        return None


class UnfinishedFeaturesScoreNothing(RefGame):
    """At the end, unfinished forests and rivers with meeples score as if closed."""

    def _final_scoring(self):
        unfinished = {}
        for g in self.board_meeples:
            if zone_type(g) in ("forest", "river"):
                zones, _ = self.board.feature(g, zone_type(g))
                unfinished[self.feature_id(zones)] = (zone_type(g), zones)
        self._score_closed(self.decision, unfinished)
        super()._final_scoring()


class RiverSystem(RefGame):
    """A river system is worth the fish of its rivers only, not of its lakes."""

    def system_points(self, zones):
        return sum(zone_info(g)["fish"] for g in zones if zone_type(g) == "river")


class FinalEventsForZero(RefGame):
    """A river system or a meadow worth 0 gives no event."""

    def _score(self, decision, reason, seats, points, feature):
        if not (reason in ("river_system", "meadow") and points == 0):
            super()._score(decision, reason, seats, points, feature)


class Raft(RefGame):
    """The raft adds nothing."""

    def _score(self, decision, reason, seats, points, feature):
        if reason != "raft":
            super()._score(decision, reason, seats, points, feature)


class AnimalValues(RefGame):
    """An aurochs is worth 3."""

    def animal_points(self, animals, cancelled_deer):
        return super().animal_points(animals, cancelled_deer) + sum(1 for _, _, a in animals if a == "aurochs")


class TigerCancelsDeer(RefGame):
    """Tigers cancel no deer."""

    def animal_points(self, animals, cancelled_deer):
        return super().animal_points(animals, 0)


class _MeadowValue(RefGame):
    """meadow_value of the oracle with the wild fire and the pit trap as switches."""

    fire = True
    pit_doubles = True
    cancel_outside_first = True

    def meadow_value(self, meadow):
        animals = [
            (g, i, a)
            for g in sorted(meadow)
            for i, a in enumerate(zone_info(g)["animals"])
            if (g, i) not in self.covered
        ]
        if self.fire and ref.WILD_FIRE_ZONE in meadow:
            animals = [(g, i, a) for g, i, a in animals if a != "tiger"]
        tigers = sum(1 for t in animals if t[2] == "tiger")
        if ref.PIT_TRAP_ZONE not in meadow:
            return self.animal_points(animals, tigers)
        pit = self.board.where[ref.PIT_TRAP_ZONE // 10]
        inside = [t for t in animals if ref.near(self.board.where[t[0] // 10], pit)]
        outside = [t for t in animals if not ref.near(self.board.where[t[0] // 10], pit)]
        if self.cancel_outside_first:
            cancel_out = min(tigers, sum(1 for t in outside if t[2] == "deer"))
            cancel_in = tigers - cancel_out
        else:
            cancel_in = min(tigers, sum(1 for t in inside if t[2] == "deer"))
            cancel_out = tigers - cancel_in
        factor = 2 if self.pit_doubles else 1
        return self.animal_points(outside, cancel_out) + factor * self.animal_points(inside, cancel_in)


class WildFire(_MeadowValue):
    """The wild fire removes no tiger."""

    fire = False


class PitTrap(_MeadowValue):
    """The pit trap doubles nothing."""

    pit_doubles = False


class PitTrapCancelsOutsideFirst(_MeadowValue):
    """Around the pit trap, tigers cancel the deer inside its 3x3 area first."""

    cancel_outside_first = False


class FinalOrder(RefGame):
    """Final scoring takes the meadows before the river systems."""

    def _score_systems(self, dec):
        pass  # after the meadows

    def _score_meadows(self, dec):
        super()._score_meadows(dec)
        super()._score_systems(dec)


class FinalEventDecision(RefGame):
    """Final scoring's events carry the index of the last decision, not the number played."""

    def _final_scoring(self):
        before = len(self.events)
        super()._final_scoring()
        self.events[before:] = [(d - 1, *rest) for d, *rest in self.events[before:]]


def _lowest_of_a_tie(scores: list[int]) -> list[int]:
    return [scores.index(max(scores))]


# The rules of carcassonne_hg's coverage map, each with the oracle that breaks it.
MUTANTS: dict[str, type[RefGame] | None] = {
    "placement_adjacent": PlacementAdjacent,
    "sides_match": SidesMatch,
    "rotation": Rotation,
    "river_banks": RiverBanks,
    "start_tile": StartTile,
    "first_seat": FirstSeat,
    "discard_normal": DiscardUnplaceable,
    "occupant_optional": OccupantOptional,
    "meeple_zones": MeepleZones,
    "meeple_feature_free": MeepleFeatureFree,
    "meeple_supply": MeepleSupply,
    "hut_zones": HutZones,
    "hut_system_free": HutSystemFree,
    "hut_supply": HutSupply,
    "pieces_independent": PiecesIndependent,
    "shaman_retake": ShamanRetake,
    "retake_own_meeple": RetakeOwnMeeple,
    "retake_not_hut": RetakeNotHut,
    "retake_refills_supply": RetakeRefillsSupply,
    "retake_frees_feature": RetakeFreesFeature,
    "logboat": Logboat,
    "hunting_trap": HuntingTrap,
    "hunting_trap_event_for_zero": HuntingTrapEventForZero,
    "hunting_trap_covers": HuntingTrapCovers,
    "forest": ForestPoints,
    "tile_counts_once": TileCountsOnce,
    "forest_mushrooms": ForestMushrooms,
    "river": RiverPoints,
    "river_lake_once": RiverLakeOnce,
    "river_ends_on_tile": RiverEndsOnTile,
    "score_needs_meeple": ScoreNeedsMeeple,
    "majority": Majority,
    "majority_tie": MajorityTie,
    "meeples_go_home": MeeplesGoHome,
    "score_order": ScoreOrder,
    "feature_id": FeatureId,
    "menhir_extra_turn": MenhirExtraTurn,
    "extra_turn_needs_menhir_forest": ExtraTurnNeedsMenhirForest,
    "no_extra_turn_from_an_extra_turn": NoExtraTurnFromAnExtraTurn,
    "one_extra_turn_per_turn": OneExtraTurnPerTurn,
    "extra_turn_to_the_placer": ExtraTurnToThePlacer,
    "discard_menhir": MenhirDiscard,
    "no_menhir_tile_no_extra_turn": NoMenhirTileNoExtraTurn,
    "extra_turn_after_last_normal_tile": ExtraTurnAfterLastNormalTile,
    "next_seat": NextSeat,
    "game_end": GameEnd,
    "unfinished_features_score_nothing": UnfinishedFeaturesScoreNothing,
    "river_system": RiverSystem,
    "final_events_for_zero": FinalEventsForZero,
    "raft": Raft,
    "meadow": AnimalValues,
    "tiger_cancels_deer": TigerCancelsDeer,
    "wild_fire": WildFire,
    "pit_trap": PitTrap,
    "pit_trap_cancels_outside_first": PitTrapCancelsOutsideFirst,
    "final_order": FinalOrder,
    "final_event_decision": FinalEventDecision,
    "winners": None,  # the engine's winners, not the oracle's game (WINNER_MUTANTS)
}

WINNER_MUTANTS = {"winners": _lowest_of_a_tie}
