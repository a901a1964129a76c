/**
 * Game info (ListGames, GetGameInfo) is enough to understand the server without the Python package:
 * every legal action code of whole games is decoded with only the published layout and compared with
 * the server's structured move, and the published tiles and board agree with what the server plays.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import {
  CarcassonneTileKind,
  CarcassonneZoneType,
  HuntersClient,
  JaegerSpaceKind,
  JaegerTileKind,
  PieceKind,
  isOver,
  type CarcassonneInfo,
  type GameConfig,
  type JaegerInfo,
  type MatchState,
  type Move,
} from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
let client: HuntersClient;
let carcassonne: CarcassonneInfo;
let jaeger: JaegerInfo;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
  const c = await client.gameInfo("carcassonne_hg");
  const j = await client.gameInfo("jaeger_sammler");
  assert.equal(c.details.case, "carcassonne");
  assert.equal(j.details.case, "jaeger");
  carcassonne = c.details.value;
  jaeger = j.details.value;
});
after(async () => server?.stop());

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Play a seeded random game; `check` sees the state and legal moves before every move. */
async function playChecking(
  config: GameConfig & { seed: number },
  check: (state: MatchState, moves: { move: Move; action: number }[]) => void,
): Promise<number> {
  const random = lcg(config.seed);
  const match = await client.createMatch(config);
  let state = match.state;
  let turns = 0;
  while (!isOver(state)) {
    const legal = await client.legalMoves(match.matchId);
    check(state, legal.moves);
    const pick = legal.moves[Math.floor(random() * legal.moves.length)]!;
    state = (await client.play(match.matchId, match.seatTokens[legal.player]!, { action: pick.action })).state;
    turns++;
  }
  return turns;
}

describe("ListGames", () => {
  it("lists both games with their player ranges and action-space sizes", async () => {
    const games = await client.listGames();
    const byId = new Map(games.map((g) => [g.game, g]));
    assert.deepEqual([...byId.keys()].sort(), ["carcassonne_hg", "jaeger_sammler"]);
    const c = byId.get("carcassonne_hg")!;
    const j = byId.get("jaeger_sammler")!;
    assert.deepEqual([c.minPlayers, c.maxPlayers], [2, 5]);
    assert.ok(j.minPlayers >= 2 && j.maxPlayers >= j.minPlayers);
    assert.ok(c.displayName.length > 0 && j.displayName.length > 0);
    // the size follows from the published layouts
    const a = carcassonne.actions!;
    assert.equal(Number(c.actionSpaceSize), a.side * a.side * a.rotations * a.occupantSlots * a.retakeSlots);
    const b = jaeger.actions!;
    assert.equal(Number(j.actionSpaceSize), b.steps * (b.steps + 1));
    assert.deepEqual(await client.gameInfo("carcassonne_hg").then((i) => i.summary.game), "carcassonne_hg");
  });
});

describe("carcassonne_hg info", () => {
  it("publishes every tile, once, in its pile", () => {
    const tiles = carcassonne.tiles;
    assert.equal(tiles.length, 95);
    assert.deepEqual(
      tiles.map((t) => t.id),
      tiles.map((_, i) => i),
    );
    assert.equal(tiles[carcassonne.startTile]!.kind, CarcassonneTileKind.START);
    for (const id of carcassonne.normalTiles) assert.equal(tiles[id]!.kind, CarcassonneTileKind.NORMAL);
    for (const id of carcassonne.menhirTiles) assert.equal(tiles[id]!.kind, CarcassonneTileKind.MENHIR);
    assert.equal(1 + carcassonne.normalTiles.length + carcassonne.menhirTiles.length, 95);
    for (const t of tiles) {
      assert.equal(t.sides.length, 4, `tile ${t.id}`);
      const locals = new Set(t.zones.map((z) => z.local));
      for (const side of t.sides) {
        assert.equal(side.zones.length, side.type === CarcassonneZoneType.RIVER ? 3 : 1, `tile ${t.id}`);
        for (const z of side.zones) assert.ok(locals.has(z), `tile ${t.id}: side zone ${z} is one of its zones`);
      }
    }
  });

  it("decodes every legal action code with the published layout, and tiles match where placed", async () => {
    const L = carcassonne.actions!;
    const tiles = carcassonne.tiles;
    let decoded = 0;
    let retakes = 0;
    let turns = 0;
    // the shaman (tile 88) as the only menhir tile, so that retake slots occur; games until one does
    for (let seed = 31; retakes === 0 && seed < 37; seed++) {
      const config = { game: "carcassonne_hg", players: 3, seed, carcassonne: { menhirDeck: { tiles: [88] } } };
      turns += await playChecking(config, (state, moves) => {
      assert.equal(state.view.case, "carcassonne");
      const view = state.view.value;
      const tile = view.tile!;
      // the mover's meeples on the board, by global zone id: the retake slots
      const mine = view.occupants
        .filter((p) => p.seat === state.player && p.kind === PieceKind.MEEPLE)
        .map((p) => p.zone)
        .sort((a, b) => a - b);
      for (const { move, action } of moves) {
        let a = action;
        const ret = a % L.retakeSlots;
        a = Math.floor(a / L.retakeSlots);
        const occ = a % L.occupantSlots;
        a = Math.floor(a / L.occupantSlots);
        const rotation = a % L.rotations;
        a = Math.floor(a / L.rotations);
        const x = (a % L.side) - L.bound;
        const y = Math.floor(a / L.side) - L.bound;
        assert.equal(move.game.case, "carcassonne");
        const m = move.game.value;
        assert.deepEqual([x, y, rotation], [m.x, m.y, m.rotation], `action ${action}`);
        const occupant =
          occ === 0
            ? undefined
            : occ < L.hutSlotBase
              ? { kind: PieceKind.MEEPLE, zone: tile * 10 + occ - L.meepleSlotBase }
              : { kind: PieceKind.HUT, zone: tile * 10 + occ - L.hutSlotBase };
        assert.deepEqual(
          occupant,
          m.occupant && { kind: m.occupant.kind, zone: m.occupant.zone },
          `action ${action}`,
        );
        assert.equal(ret === 0 ? undefined : mine[ret - 1], m.retake, `action ${action}`);
        if (ret > 0) retakes++;
        decoded++;
      }
      // every placed tile's sides match its neighbours' facing sides (side facing d = (d - r) mod 4)
      const at = new Map(view.board.map((p) => [`${p.x},${p.y}`, p]));
      const facing = (p: { tile: number; rotation: number }, d: number) =>
        tiles[p.tile]!.sides[(((d - p.rotation) % 4) + 4) % 4]!.type;
      for (const p of view.board) {
        const east = at.get(`${p.x + 1},${p.y}`);
        if (east) assert.equal(facing(p, 1), facing(east, 3), `${p.x},${p.y} east`);
        const south = at.get(`${p.x},${p.y + 1}`);
        if (south) assert.equal(facing(p, 2), facing(south, 0), `${p.x},${p.y} south`);
      }
      });
    }
    assert.ok(retakes > 0, "a shaman placement with a retake was decoded");
    assert.ok(turns > 40 && decoded > turns * 10, `${turns} turns, ${decoded} codes`);
    console.log(`carcassonne_hg: ${decoded} action codes of ${turns} turns decoded (${retakes} with a retake)`);
  });
});

describe("jaeger_sammler info", () => {
  it("publishes a consistent default board and tile kinds", () => {
    const board = jaeger.board;
    const L = jaeger.actions!;
    assert.equal(board.length, L.spaces);
    assert.equal(L.slots, L.directions + L.caves + 1);
    assert.equal(L.steps, L.spaces * L.slots);
    for (const s of board) {
      assert.equal(s.neighbours.length, L.directions);
      for (const n of s.neighbours) {
        if (n < 0) continue;
        assert.ok(board[n]!.neighbours.includes(s.space), `${s.space} and ${n} are mutual neighbours`);
      }
    }
    for (const c of jaeger.summerCamps) assert.equal(board[c]!.kind, JaegerSpaceKind.SUMMER_CAMP);
    for (const c of jaeger.winterCamps) assert.equal(board[c]!.kind, JaegerSpaceKind.WINTER_CAMP);
    const cave = jaeger.tileKinds.find((k) => k.kind === JaegerTileKind.CAVE);
    assert.equal(cave?.summerCount, L.caves, "one cave slot per cave tile");
    const tileSpaces = board.filter((s) => s.kind === JaegerSpaceKind.TILE).length;
    const summerTiles = jaeger.tileKinds.reduce((n, k) => n + k.summerCount, 0);
    assert.ok(summerTiles <= tileSpaces, `${summerTiles} summer tiles on ${tileSpaces} tile spaces`);
  });

  it("decodes every legal action code with the published layout and board", async () => {
    const L = jaeger.actions!;
    const board = jaeger.board;
    let decoded = 0;
    let caveJumps = 0;
    let leaves = 0;
    let twoSteps = 0;
    const turns = await playChecking({ game: "jaeger_sammler", players: 3, seed: 41 }, (state, moves) => {
      assert.equal(state.view.case, "jaeger");
      // caves: the spaces holding a cave tile, ascending
      const caves = state.view.value.board
        .filter((s) => s.tile?.kind === JaegerTileKind.CAVE)
        .map((s) => s.space)
        .sort((a, b) => a - b);
      const step = (code: number) => {
        const src = Math.floor(code / L.slots);
        const slot = code % L.slots;
        if (slot >= L.directions && slot < L.directions + L.caves) caveJumps++;
        if (slot === L.directions + L.caves) leaves++;
        const dst =
          slot < L.directions
            ? board[src]!.neighbours[slot]
            : slot < L.directions + L.caves
              ? caves[slot - L.directions]
              : undefined;
        return { src, dst };
      };
      for (const { move, action } of moves) {
        const first = Math.floor(action / (L.steps + 1));
        const second = action % (L.steps + 1);
        const steps = second === 0 ? [step(first)] : [step(first), step(second - 1)];
        if (second !== 0) twoSteps++;
        assert.equal(move.game.case, "jaeger");
        assert.deepEqual(
          steps,
          move.game.value.steps.map((s) => ({ src: s.src, dst: s.dst })),
          `action ${action}`,
        );
        decoded++;
      }
    });
    assert.ok(turns > 10 && decoded > turns, `${turns} turns, ${decoded} codes`);
    assert.ok(caveJumps > 0 && leaves > 0 && twoSteps > 0, "cave jumps, leaving and two-step turns decoded");
    console.log(
      `jaeger_sammler: ${decoded} action codes of ${turns} turns decoded ` +
        `(${twoSteps} two-step, ${caveJumps} cave-jump and ${leaves} leaving steps)`,
    );
  });
});
