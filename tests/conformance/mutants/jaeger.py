"""jaeger_sammler's reference engine (tests/reference/jaeger_ref.py behind the conformance protocol)
and its mutants: for each rule of the game's coverage map, the oracle with that rule, and nothing
else, mis-implemented (`MUTANTS`, in the catalogue's order)."""

from __future__ import annotations

from typing import Any

from hunters.jaeger import Game
from tests.reference.jaeger_ref import CHARACTERS, RefBoard, RefGame, mammoth_value

from . import CONTROL, RefEngine

GAME = "jaeger_sammler"

EVENT_FIELDS = ("turn", "season", "step", "kind", "seat", "space", "tile", "detail")


class Engine(RefEngine):
    game_id = GAME
    game_class: type[RefGame] = RefGame

    def start(self, record: dict[str, Any]) -> RefGame:
        layout = Game.from_record(dict(record, moves=[])).to_record()  # the record's board and layouts, read
        return self.game_class(
            layout["players"], layout["summer"], layout["winter"], layout["start"], **layout["options"]
        )

    def move_to_ref(self, move: Any) -> tuple:
        steps = [(s["src"], s["dst"]) for s in move["steps"]]
        if not 1 <= len(steps) <= 2:
            raise ValueError(f"a turn is one or two steps: {move}")
        return (steps[0], steps[1] if len(steps) == 2 else None)

    def move_json(self, move: tuple) -> Any:
        return {"steps": [{"src": s[0], "dst": s[1]} for s in move if s is not None]}

    def event_json(self, event: tuple) -> Any:
        return dict(zip(EVENT_FIELDS, event, strict=True))

    def position(self) -> dict[str, Any]:
        game = self.game
        out = {"player": game.player, "over": game.over, "scores": game.scores()}
        if game.over:
            out["winners"] = game.winners()
        return out

    def is_over(self, game: RefGame) -> bool:
        return bool(game.over)

    def clone(self, game: RefGame) -> RefGame:
        return game.clone()


def engine(rule: str = CONTROL) -> Engine:
    made = Engine()
    if rule != CONTROL:
        if rule not in MUTANTS:
            raise KeyError(f"no mutant breaks {rule!r}")
        made.game_class = MUTANTS[rule]
    return made


# -- the board and the set-up -----------------------------------------------------------------


class _SwappedGridBoard(RefBoard):
    def __init__(self, d: dict):
        if "grid" in d:
            grid = dict(d["grid"])
            grid["offset"] = "even-r" if grid.get("offset", "odd-r") == "odd-r" else "odd-r"
            d = dict(d, grid=grid)
        super().__init__(d)


class GridNeighbours(RefGame):
    """A grid's rows are shifted the other way (odd-r read as even-r)."""

    board_class = _SwappedGridBoard


class _OneWayBoard(RefBoard):
    def __init__(self, d: dict):
        super().__init__(d)
        if "spaces" in d:
            self.adj = [set() for _ in range(self.n)]
            for a, b in d.get("adjacency", []):
                self.adj[a].add(b)


class ExplicitAdjacency(RefGame):
    """An explicit board's adjacency pairs are read one way only (a to b, not b to a)."""

    board_class = _OneWayBoard


class StartCharacters(RefGame):
    """Without an explicit start, characters go on the first 3 summer camps only."""

    def default_start(self):
        return super().default_start()[:3]


class FirstSeat(RefGame):
    """Seat 1 moves first."""

    first_seat = 1


# -- steps ------------------------------------------------------------------------------------


class StepToNeighbour(RefGame):
    """A step may also go two spaces away."""

    def _far(self, src):
        return {w for v in self.b.adj[src] for w in self.b.adj[v]} - {src} - self.b.adj[src]

    def reaches(self, tiles, src, dst):
        return super().reaches(tiles, src, dst) or (dst is not None and dst in self._far(src))

    def _candidates(self, tiles, v):
        return [*super()._candidates(tiles, v), *sorted(self._far(v))]


class Holes(RefGame):
    """A space whose tile was taken may be entered."""

    def enterable(self, tiles, dst):
        return True


class OneCharacterPerTile(RefGame):
    """The last step of a turn may end on an occupied tile."""

    def _try_step(self, st, seat, src, dst, jumped_from_here, may_end_occupied, step=0):
        result = super()._try_step(st, seat, src, dst, jumped_from_here, may_end_occupied or step == 1, step)
        return True if step == 1 and result == "jump" else result


class CavesHoldMany(RefGame):
    """A cave holds one character, as a tile does."""

    def holds_many(self, v, tiles=None):
        return self.is_camp(v)


class Jump(RefGame):
    """No jumps: a step never ends on an occupied tile."""

    jumps = False


class JumpLands(RefGame):
    """A jump may end by leaving the board from the jumped tile."""

    def jump_lands(self, s1, s2):
        if s2 is not None and s2[0] == s1[1] and s2[1] is None:
            return True
        return super().jump_lands(s1, s2)


class JumpedTileNotTaken(RefGame):
    """The jumped tile is taken too."""

    def takes(self, tiles, src, dst, step, jumped_from_here):
        return super().takes(tiles, src, dst, step, False)


class JumpedMammothFree(RefGame):
    """Jumping onto an occupied mammoth spends a weapon too."""

    def _occupied_mammoth(self, tiles, dst, chars):
        return (
            dst is not None
            and not self.holds_many(dst, tiles)
            and str(tiles[dst]).startswith("mammoth")
            and sum(cs.count(dst) for cs in chars) > 0
        )

    def _try_step(self, st, seat, src, dst, jumped_from_here, may_end_occupied, step=0):
        if may_end_occupied and self._occupied_mammoth(st["tiles"], dst, st["chars"]) and not self.pay(st):
            return None
        return super()._try_step(st, seat, src, dst, jumped_from_here, may_end_occupied, step)

    def _real_step(self, seat, i, src, dst, jumped_from_here):
        pays = i == 0 and self._occupied_mammoth(self.tiles, dst, self.chars)
        took = super()._real_step(seat, i, src, dst, jumped_from_here)
        if pays:
            self.weapons[seat] -= 1
            self.spent[seat] += 1
            self._ev(i, "spend_weapon", seat, dst, self.tiles[dst])
        return took


class CaveJump(RefGame):
    """No cave jumps."""

    def reaches(self, tiles, src, dst):
        return dst is None or dst in self.b.adj[src]


class Leave(RefGame):
    """A character may leave the board only from a camp."""

    def reaches(self, tiles, src, dst):
        return super().reaches(tiles, src, dst) and (dst is not None or self.is_camp(src))


class TakeWhenLeaving(RefGame):
    """Leaving the board takes nothing."""

    def takes(self, tiles, src, dst, step, jumped_from_here):
        return dst is not None and super().takes(tiles, src, dst, step, jumped_from_here)


class Take(RefGame):
    """The second step of a turn takes nothing."""

    def takes(self, tiles, src, dst, step, jumped_from_here):
        return step == 0 and super().takes(tiles, src, dst, step, jumped_from_here)


class PathsAndCavesStay(RefGame):
    """A path is taken like any tile."""

    def takes(self, tiles, src, dst, step, jumped_from_here):
        return super().takes(tiles, src, dst, step, jumped_from_here) or (
            not jumped_from_here and not self.is_camp(src) and tiles[src] == "path"
        )


class TurnOfTwoSteps(RefGame):
    """A turn of one step is always allowed."""

    def one_step_turn(self, st, seat):
        return True


# -- weapons and mammoths ---------------------------------------------------------------------


class MammothNeedsWeapon(RefGame):
    """A mammoth is entered without a weapon (one held is still spent)."""

    def pay(self, st):
        super().pay(st)
        return True

    def spend(self, seat, i, dst):
        if self.weapons[seat] > 0:
            super().spend(seat, i, dst)


class WeaponSpent(RefGame):
    """Entering a mammoth needs a weapon but keeps it."""

    def pay(self, st):
        return st["weapons"] >= 1

    def spend(self, seat, i, dst):
        super().spend(seat, i, dst)
        self.weapons[seat] += 1
        self.spent[seat] -= 1


class WeaponUnderfoot(RefGame):
    """The weapon a character stands on does not pay for the mammoth it steps onto."""

    def pay(self, st):
        underfoot = sum(1 for step, tile in st["took"] if step == st["step"] and tile == "weapon")
        if st["weapons"] - underfoot < 1:
            return False
        return super().pay(st)


class WeaponTakenThisTurn(RefGame):
    """A weapon taken by the turn's first step does not pay for a mammoth of its second."""

    def pay(self, st):
        earlier = sum(1 for step, tile in st["took"] if step < st["step"] and tile == "weapon")
        if st["weapons"] - earlier < 1:
            return False
        return super().pay(st)


class StraightJumps(RefGame):
    """The option straight_jumps is ignored."""

    def __init__(self, *args, **options):
        super().__init__(*args, **options)
        self.straight = False


# -- supply packs -----------------------------------------------------------------------------


class SupplyPackOtherSeason(RefGame):
    """A pack is dropped on a camp of either season."""

    def drops_pack(self, seat, dst, step):
        return self.is_camp(dst) and self.hand[seat] > 0 and seat not in self.packs_on.get(dst, set())


class SupplyPackOncePerCamp(RefGame):
    """A pack is dropped even where one of the seat's lies already."""

    def drops_pack(self, seat, dst, step):
        other = "winter" if self.season == "summer" else "summer"
        return self.b.kind[dst] == other and self.hand[seat] > 0


class SupplyPackPassingThrough(RefGame):
    """Only the camp a turn ends on gets a pack, not one passed through by the first of two steps."""

    steps = 1

    def play(self, move):
        self.steps = 1 if move[1] is None else 2
        super().play(move)

    def drops_pack(self, seat, dst, step):
        return step == self.steps - 1 and super().drops_pack(seat, dst, step)


class FourSupplyPacks(RefGame):
    """Five packs a seat."""

    packs = 5


# -- the end of a season ----------------------------------------------------------------------


class SeasonEndNoCharacters(RefGame):
    """A season does not end when nobody has a character on the board."""

    def _end_reason(self):
        if not any(self.chars):
            return None
        return super()._end_reason()


class SeasonEndReasonOrder(RefGame):
    """The end reasons are checked in another order: nothing reachable before no characters."""

    def _end_reason(self):
        if not self._open_tile():
            return "unreachable"
        return super()._end_reason()


class SeasonEndUnreachable(RefGame):
    """A season does not end when no tile is left to take."""

    def _open_tile(self):
        return True


class InaccessibleMammoth(RefGame):
    """A mammoth in reach keeps a season going, whatever the weapons."""

    def armed(self, seat):
        return True


class MammothNeedsOwnersWeapon(RefGame):
    """Any seat's weapon makes a mammoth accessible, not only its reacher's."""

    def armed(self, seat):
        return any(w > 0 for w in self.weapons)


class SeasonEndStall(RefGame):
    """No stall rule."""

    def _end_reason(self):
        reason = super()._end_reason()
        return None if reason == "stall" else reason


class StallCountsSeatsOnTheBoard(RefGame):
    """The stall rule counts rounds of every seat, those off the board too."""

    def _end_reason(self):
        reason = super()._end_reason()
        if reason == "stall" and self.idle < self.stall_rounds * self.players:
            return None
        return reason


class SeasonEndAtSetUp(RefGame):
    """Summer's end is not checked at set-up."""

    def _after(self, seat, first=False):
        if first:
            self.player = self._next_with_characters(self.first_seat, True)
            return
        super()._after(seat, first)


class RemoveLeftovers(RefGame):
    """At a season's end the tiles under characters stay."""

    def _remove_leftovers(self, turn):
        under = {v for cs in self.chars for v in cs}
        kept = {v: self.tiles[v] for v in under if not self.is_camp(v)}
        for v in kept:
            self.tiles[v] = None
        super()._remove_leftovers(turn)
        for v, tile in kept.items():
            self.tiles[v] = tile


# -- winter -----------------------------------------------------------------------------------


class WinterDeal(RefGame):
    """The winter deck is dealt by descending space."""

    def _deal_winter(self):
        deck = iter(self.winter_deck)
        for v in reversed(range(self.b.n)):
            if not self.is_camp(v) and self.tiles[v] is None:
                tile = next(deck, None)
                if tile is None:
                    break
                self.tiles[v] = tile
                self.laid[tile] += 1


class WinterSetUp(RefGame):
    """Every seat gets a character on every winter camp, packs or not."""

    def _place_winter(self, turn):
        for v in range(self.b.n):
            if self.b.kind[v] == "winter":
                for p in range(self.players):
                    if len(self.chars[p]) < CHARACTERS:
                        self.chars[p].append(v)
                        self._ev(None, "place", p, v, turn=turn)


class PacksReturn(RefGame):
    """The packs stay where they lie when winter starts."""

    def _start_winter_counts(self):
        packs_on, hand = self.packs_on, list(self.hand)
        super()._start_winter_counts()
        self.packs_on, self.hand = packs_on, hand


class IdleRestart(RefGame):
    """Idle turns go on counting from summer into winter."""

    def _start_winter_counts(self):
        idle = self.idle
        super()._start_winter_counts()
        self.idle = idle


class WinterStartMammoth(RefGame):
    """Kills do not decide who starts winter."""

    def _winter_starter(self):
        self.best = None
        return super()._winter_starter()


class WinterStartKill(RefGame):
    """A summer mammoth counts for winter's start when it is taken (moved off), not when killed."""

    def _killed(self, seat, value):
        pass

    def _took(self, seat, tile):
        if self.season == "summer" and tile.startswith("mammoth"):
            RefGame._killed(self, seat, mammoth_value(tile))


class WinterStartEarlierKill(RefGame):
    """Of equal mammoths the later kill starts winter."""

    def _killed(self, seat, value):
        if self.best is None or value >= self.best[0]:
            self.best = (value, seat)


class WinterStartAfterLast(RefGame):
    """Without a kill, the seat that played the last summer turn starts winter."""

    def _winter_starter(self):
        start, rule = super()._winter_starter()
        return (self.last % self.players if rule == "after_last" else start), rule


class WinterStartSeat0(RefGame):
    """The option winter_start seat0 is ignored."""

    def _winter_starter(self):
        self.winter_start_rule = "after_last"
        return super()._winter_starter()


class WinterFirstWithCharacters(RefGame):
    """A winter starter without characters hands winter to seat 0's side: the first seat with one."""

    def _winter_first(self, start):
        return self._next_with_characters(0, True)


class TurnOrder(RefGame):
    """Turns pass in decreasing seat order."""

    def _next_with_characters(self, start, inclusive):
        if inclusive:
            return super()._next_with_characters(start, inclusive)
        for i in range(1, self.players + 1):
            q = (start - i) % self.players
            if self.chars[q]:
                return q
        return start


class SkipSeatsWithoutCharacters(RefGame):
    """The turn passes to the next seat even when it has no character on the board."""

    def _next_with_characters(self, start, inclusive):
        if inclusive:
            return super()._next_with_characters(start, inclusive)
        return (start + 1) % self.players


class GameEnd(RefGame):
    """The game ends with summer."""

    def winter_follows(self):
        return False


# -- scoring ----------------------------------------------------------------------------------


class Food(RefGame):
    """Herbs are worth 2."""

    food = {"berries": 1, "tubers": 2, "herbs": 2}


class MammothPoints(RefGame):
    """A mammoth is worth one more than printed."""

    def mammoth_points(self, tile):
        return mammoth_value(tile) + 1


class Goods(RefGame):
    """Two goods of a kind are worth 2."""

    goods_table = [0, 1, 2, 6, 10, 15, 20]


class PackPoints(RefGame):
    """A pack on a summer camp is worth 4."""

    pack_points = 4


class WeaponsScoreNothing(RefGame):
    """Each weapon held is worth 1."""

    def scores(self):
        return [s + w for s, w in zip(super().scores(), self.weapons, strict=True)]


class Winners(RefGame):
    """On a tie the lowest tied seat alone wins."""

    def winners(self):
        best = super().winners()
        return best[:1] if self.ties == "shared" else best


class TiesNoWinner(RefGame):
    """The option ties no_winner is ignored: tied seats share the victory."""

    def winners(self):
        self.ties = "shared"
        return super().winners()


class EventOrder(RefGame):
    """A step's take comes after its leave, weapon or pack."""

    def _real_step(self, seat, i, src, dst, jumped_from_here):
        before = len(self.events)
        took = super()._real_step(seat, i, src, dst, jumped_from_here)
        new = self.events[before:]
        if len(new) > 1 and new[0][3] == "take":
            self.events[before:] = [*new[1:], new[0]]
        return took


# The rules of jaeger_sammler's coverage map, each with the oracle that breaks it.
MUTANTS: dict[str, type[RefGame]] = {
    "grid_neighbours": GridNeighbours,
    "explicit_adjacency": ExplicitAdjacency,
    "start_characters": StartCharacters,
    "first_seat": FirstSeat,
    "step_to_neighbour": StepToNeighbour,
    "holes": Holes,
    "one_character_per_tile": OneCharacterPerTile,
    "caves_hold_many": CavesHoldMany,
    "jump": Jump,
    "jump_lands": JumpLands,
    "jumped_tile_not_taken": JumpedTileNotTaken,
    "jumped_mammoth_free": JumpedMammothFree,
    "cave_jump": CaveJump,
    "leave": Leave,
    "take_when_leaving": TakeWhenLeaving,
    "take": Take,
    "paths_and_caves_stay": PathsAndCavesStay,
    "turn_of_two_steps": TurnOfTwoSteps,
    "mammoth_needs_weapon": MammothNeedsWeapon,
    "weapon_spent": WeaponSpent,
    "weapon_underfoot": WeaponUnderfoot,
    "weapon_taken_this_turn": WeaponTakenThisTurn,
    "straight_jumps": StraightJumps,
    "supply_pack": SupplyPackOtherSeason,
    "supply_pack_once_per_camp": SupplyPackOncePerCamp,
    "supply_pack_passing_through": SupplyPackPassingThrough,
    "four_supply_packs": FourSupplyPacks,
    "season_end_no_characters": SeasonEndNoCharacters,
    "season_end_reason_order": SeasonEndReasonOrder,
    "season_end_unreachable": SeasonEndUnreachable,
    "inaccessible_mammoth": InaccessibleMammoth,
    "mammoth_needs_owners_weapon": MammothNeedsOwnersWeapon,
    "season_end_stall": SeasonEndStall,
    "stall_counts_seats_on_the_board": StallCountsSeatsOnTheBoard,
    "season_end_at_set_up": SeasonEndAtSetUp,
    "remove_leftovers": RemoveLeftovers,
    "winter_deal": WinterDeal,
    "winter_setup": WinterSetUp,
    "packs_return": PacksReturn,
    "idle_restart": IdleRestart,
    "winter_start_mammoth": WinterStartMammoth,
    "winter_start_kill": WinterStartKill,
    "winter_start_earlier_kill": WinterStartEarlierKill,
    "winter_start_after_last": WinterStartAfterLast,
    "winter_start_seat0": WinterStartSeat0,
    "winter_first_with_characters": WinterFirstWithCharacters,
    "turn_order": TurnOrder,
    "skip_seats_without_characters": SkipSeatsWithoutCharacters,
    "game_end": GameEnd,
    "food": Food,
    "mammoth_points": MammothPoints,
    "goods": Goods,
    "pack_points": PackPoints,
    "weapons_score_nothing": WeaponsScoreNothing,
    "winners": Winners,
    "ties_no_winner": TiesNoWinner,
    "event_order": EventOrder,
}
