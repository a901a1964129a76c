/** Complete games of both games through the facade, watching, the oracle and simulation. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { HuntersClient, MatchStatus, carcassonneMove, isOver, jaegerMove, type MatchEvent, type Move } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
});
after(async () => server?.stop());

/** A deterministic generator, so that a failing game can be replayed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * Play a whole game with random legal moves, alternately as structured moves and as action codes,
 * checking at each step what the service promises; returns the moves played.
 */
async function playOut(game: string, players: number, seed: number): Promise<{ matchId: string; moves: Move[] }> {
  const random = lcg(seed);
  const match = await client.createMatch({ game, players, seed });
  assert.equal(match.version, 0);
  assert.equal(match.game, game);
  assert.equal(match.seatTokens.length, players);
  assert.equal(match.state.view.case, game === "carcassonne_hg" ? "carcassonne" : "jaeger");
  const moves: Move[] = [];
  let state = match.state;
  while (!isOver(state)) {
    const legal = await client.legalMoves(match.matchId);
    assert.equal(legal.version, moves.length);
    assert.equal(legal.player, state.player);
    assert.ok(legal.moves.length > 0, "a game that is not over has a legal move");
    const pick = legal.moves[Math.floor(random() * legal.moves.length)]!;
    const token = match.seatTokens[legal.player]!;
    const play = moves.length % 2 === 0 ? { move: pick.move } : { action: pick.action };
    const result = await client.play(match.matchId, token, play, { expectedVersion: legal.version });
    assert.equal(result.version, moves.length + 1);
    assert.equal(result.state.version, BigInt(result.version));
    moves.push(pick.move);
    state = result.state;
  }
  assert.equal(state.scores.length, players);
  assert.ok(state.winners.length >= 1);
  const best = Math.max(...state.scores);
  for (const w of state.winners) assert.equal(state.scores[w], best, "a winner has the best score");
  const final = await client.getMatch(match.matchId);
  assert.equal(final.version, moves.length);
  assert.equal(final.status, MatchStatus.OVER);
  assert.equal(final.state.winners.length, state.winners.length);
  assert.deepEqual(final.state.scores, state.scores);
  // no legal move once over
  assert.equal((await client.legalMoves(match.matchId)).moves.length, 0);
  // the oracle replays the same game from the seed and the moves
  const replay = await client.evaluate({ game, players, seed }, moves);
  assert.equal(replay.legal, true);
  assert.equal(isOver(replay.state), true);
  assert.deepEqual(replay.state.scores, state.scores);
  return { matchId: match.matchId, moves };
}

describe("complete games", () => {
  it("carcassonne_hg, 2 players", async () => {
    const { moves } = await playOut("carcassonne_hg", 2, 11);
    assert.ok(moves.every((m) => m.game.case === "carcassonne"));
    assert.ok(moves.length > 40, `${moves.length} moves`);
  });
  it("carcassonne_hg, 4 players", async () => {
    await playOut("carcassonne_hg", 4, 12);
  });
  it("jaeger_sammler, 2 players", async () => {
    const { moves } = await playOut("jaeger_sammler", 2, 21);
    assert.ok(moves.every((m) => m.game.case === "jaeger"));
  });
  it("jaeger_sammler, 3 players", async () => {
    await playOut("jaeger_sammler", 3, 22);
  });
  it("the record of a finished match needs no token", async () => {
    const { matchId, moves } = await playOut("jaeger_sammler", 2, 23);
    const record = (await client.getRecord(matchId)) as { moves: unknown[] };
    assert.equal(record.moves.length, moves.length);
  });
});

describe("watching", () => {
  it("streams every version of a live match, then ends", async () => {
    const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 5 });
    const seen: MatchEvent[] = [];
    const watching = (async () => {
      for await (const ev of client.watch(match.matchId)) seen.push(ev);
    })();
    const random = lcg(5);
    let over = false;
    let version = 0;
    while (!over) {
      const legal = await client.legalMoves(match.matchId);
      const pick = legal.moves[Math.floor(random() * legal.moves.length)]!;
      const r = await client.play(match.matchId, match.seatTokens[legal.player]!, { action: pick.action });
      over = isOver(r.state);
      version = r.version;
    }
    await watching; // the stream ends by itself once the match is over
    assert.deepEqual(
      seen.map((e) => e.version),
      Array.from({ length: version + 1 }, (_, i) => i),
    );
    assert.equal(seen[0]!.seat, undefined);
    assert.equal(seen[0]!.move, undefined);
    assert.ok(seen.slice(1).every((e) => e.move !== undefined && e.seat !== undefined && e.seat >= 0 && e.seat < 2));
    assert.ok(seen.slice(0, -1).every((e) => !e.matchOver));
    assert.equal(seen.at(-1)!.matchOver, true);
    const final = await client.getMatch(match.matchId);
    assert.deepEqual(seen.at(-1)!.state.scores, final.state.scores);
    // score events seen by the watcher add up to the final scores
    const total = [0, 0];
    for (const e of seen)
      for (const ev of e.events)
        if (ev.game.case === "carcassonneScore") for (const s of ev.game.value.seats) total[s]! += ev.game.value.points;
    assert.deepEqual(total, final.state.scores);

    // from a version on: only the later versions of the finished match
    const late: number[] = [];
    for await (const ev of client.watch(match.matchId, { fromVersion: version - 2 })) late.push(ev.version);
    assert.deepEqual(late, [version - 2, version - 1, version]);
  });

  it("stops when its signal aborts", async () => {
    const match = await client.createMatch({ game: "jaeger_sammler", players: 2, seed: 6 });
    const ctl = new AbortController();
    const seen: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of client.watch(match.matchId, { signal: ctl.signal })) {
          seen.push(ev.version);
          ctl.abort();
        }
      })(),
      (err: Error) => err.name === "HuntersError",
    );
    assert.deepEqual(seen, [0]);
  });
});

describe("oracle", () => {
  it("evaluates moves and names the first illegal one", async () => {
    const config = { game: "carcassonne_hg", players: 2, seed: 3 };
    const start = await client.evaluate(config, [], { includeLegalMoves: true });
    assert.equal(start.legal, true);
    assert.ok(start.legalMoves.length > 0);
    const first = start.legalMoves[0]!.move;
    const bad = carcassonneMove({ x: 50, y: 50, rotation: 0 });
    const r = await client.evaluate(config, [first, bad], { includeLegalMoves: true });
    assert.equal(r.legal, false);
    assert.deepEqual({ index: r.illegal?.index, reason: r.illegal?.reason }, { index: 1, reason: "NOT_ADJACENT" });
    assert.equal(r.state.version, 1n); // the state before the refused move
  });

  it("accepts jaeger moves built by hand", async () => {
    const config = { game: "jaeger_sammler", players: 2, seed: 3 };
    const start = await client.evaluate(config, [], { includeLegalMoves: true });
    const body = start.legalMoves[0]!.move.game;
    assert.equal(body.case, "jaeger");
    const steps = body.value.steps.map((s) => ({ src: s.src, dst: s.dst }));
    const r = await client.evaluate(config, [jaegerMove(steps)]);
    assert.equal(r.legal, true);
    assert.equal(r.state.version, 1n);
  });

  it("simulates games in the server with progress to the end", async () => {
    const progress = [];
    for await (const p of client.simulate({ game: "carcassonne_hg", players: 2, games: 40, seed: 1 })) progress.push(p);
    const last = progress.at(-1)!;
    assert.equal(last.done, true);
    assert.equal(last.gamesDone, 40);
    assert.equal(last.wins.length, 2);
    assert.ok(last.wins.reduce((a, b) => a + b, 0) >= 40, "every game has a winner");
    assert.ok(last.moves > 40 * 40);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.gamesDone > progress[i - 1]!.gamesDone);
  });

  it("counts perft in the server and serves the conformance vectors", async () => {
    const lines = [];
    const config = { game: "carcassonne_hg", players: 2, seed: 1 };
    for await (const line of client.perft({ config, depth: 2, divide: true })) lines.push(line);
    const total = lines.at(-1)!;
    assert.equal(total.done, true);
    assert.equal(total.count, 656n); // the engine contract's count of this position
    assert.equal(lines.length, 16); // 15 first moves, then the total
    const files = await client.conformanceVectors("carcassonne_hg");
    assert.deepEqual(files.map((f) => f.name).sort(), ["perft.jsonl", "replays.jsonl"]);
    const vectors = (await client.conformanceVectorFile("carcassonne_hg", "perft.jsonl")) as { counts: number[] }[];
    assert.deepEqual(vectors[0]!.counts, [1, 15, 656, 54604]);
  });
});
