/** Analyses and reviews: a hint (a seat's own view of a match with hints), a finished match's position, its review. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { HuntersClient, HuntersError, MatchStatus, MoveBand } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer({}, ["--review-iterations", "10"]);
  client = new HuntersClient(server.address, { timeoutMs: 30_000 });
});
after(async () => server?.stop());

async function finished(seed: number): Promise<string> {
  const m = await client.createMatch({ game: "carcassonne_hg", players: 2, seed, bots: { 0: "random", 1: "greedy" } });
  for await (const ev of client.watch(m.matchId)) if (ev.matchOver) break;
  assert.equal((await client.getMatch(m.matchId)).status, MatchStatus.OVER);
  return m.matchId;
}

describe("analysis", () => {
  it("gives a hint for the token's own seat in a match with hints, and refuses it without", async () => {
    const hinted = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 3, hints: true });
    assert.equal(hinted.hints, true);
    const hint = await client.analyze({ matchId: hinted.matchId, topK: 3, iterations: 30 }, { token: hinted.seatTokens[0] });
    assert.equal(hint.seat, 0);
    assert.equal(hint.moves.length, 3);
    const legal = new Set((await client.legalMoves(hinted.matchId)).moves.map((m) => m.action));
    for (const m of hint.moves) assert.ok(legal.has(m.action));
    const plain = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 3 });
    assert.equal(plain.hints, false);
    await assert.rejects(client.analyze({ matchId: plain.matchId }, { token: plain.seatTokens[0] }), (e: HuntersError) => {
      assert.equal(e.reason, "HINTS_NOT_ALLOWED");
      return true;
    });
    await assert.rejects(client.analyze({ matchId: hinted.matchId, seat: 1 }, { token: hinted.seatTokens[0] }), (e: HuntersError) => {
      assert.equal(e.reason, "SEAT_TOKEN_REQUIRED");
      return true;
    });
  });

  it("analyses a position sent, deterministically", async () => {
    const request = { config: { game: "jaeger_sammler", players: 2, seed: 4 }, iterations: 30, topK: 2 };
    const [a, b] = [await client.analyze(request), await client.analyze(request)];
    assert.deepEqual(a, b);
    assert.equal(a.moves.length, 2);
    assert.ok(a.position.win >= 0 && a.position.win <= 1);
  });
});

describe("review", () => {
  it("reviews a finished match once, and analyses any seat's view of it", async () => {
    const id = await finished(3);
    assert.equal((await client.getReview(id)).status, "not_requested");
    const done = await client.waitReview(id, { timeoutMs: 120_000 });
    assert.equal(done.status, "done");
    const review = done.review!;
    assert.equal(done.decisionsDone, review.decisions.length);
    assert.ok(review.worst.length > 0);
    const worst = review.decisions[review.worst[0]!]!;
    assert.ok(worst.band >= MoveBand.INACCURACY);
    assert.deepEqual(await client.requestReview(id), done); // the stored one
    const early = await client.analyze({ matchId: id, version: 5, iterations: 20 });
    assert.equal(early.version, 5);
    assert.equal(early.seat, early.player);
  });

  it("refuses a match not over", async () => {
    const live = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 1 });
    await assert.rejects(client.requestReview(live.matchId), (e: HuntersError) => {
      assert.equal(e.reason, "MATCH_NOT_OVER");
      return true;
    });
  });
});
