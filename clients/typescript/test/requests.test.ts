/**
 * What the client sends, without a server: an in-memory transport (connect's router) records the
 * requests. Seat streams open changes-only from `playSeat` unless asked otherwise; `play` passes
 * `changesOnly` on.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { createRouterTransport } from "@connectrpc/connect";

import { HuntersClient } from "../src/index.js";
import { MatchService, type PlayMoveRequest, type PlaySeatRequest } from "../src/gen/hunters/v1/matches_pb.js";
import { OracleService } from "../src/gen/hunters/v1/oracle_pb.js";

/**
 * A client on a fake MatchService and OracleService: each seat stream's first request (and its
 * moves), each PlayMove request, and the deadline each Perft call had.
 */
function recording(options: { timeoutMs?: number } = {}): {
  client: HuntersClient;
  opens: PlaySeatRequest[];
  seatMoves: PlaySeatRequest[];
  moves: PlayMoveRequest[];
  perftDeadlines: (number | undefined)[];
} {
  const opens: PlaySeatRequest[] = [];
  const seatMoves: PlaySeatRequest[] = [];
  const moves: PlayMoveRequest[] = [];
  const perftDeadlines: (number | undefined)[] = [];
  const transport = createRouterTransport(({ service }) => {
    service(MatchService, {
      async *playSeat(requests) {
        for await (const r of requests) {
          if (r.kind.case === "open") opens.push(r);
          else seatMoves.push(r);
          if (r.kind.case === "open" && r.kind.value.matchId !== "moves") return; // the match has no more versions
          if (r.kind.case === "play") return;
        }
      },
      playMove(request) {
        moves.push(request);
        return { version: request.expectedVersion ?? 0n, state: {} };
      },
    });
    service(OracleService, {
      async *perft(_request, context) {
        perftDeadlines.push(context.timeoutMs());
        yield { count: 1n, done: true };
      },
    });
  });
  return { client: new HuntersClient("127.0.0.1:1", { transport, ...options }), opens, seatMoves, moves, perftDeadlines };
}

function opened(r: PlaySeatRequest | undefined): { matchId: string; changesOnly: boolean; resume?: bigint } {
  assert.equal(r?.kind.case, "open");
  const o = r.kind.value;
  return { matchId: o.matchId, changesOnly: o.changesOnly, resume: o.resumeVersion };
}

describe("requests", () => {
  it("opens playSeat's stream changes-only by default, whole with changesOnly: false", async () => {
    const { client, opens } = recording();
    assert.equal(await client.playSeat("m1", "t", () => ({ action: 0 })), undefined);
    await client.playSeat("m2", "t", () => ({ action: 0 }), { changesOnly: false, resumeVersion: 4 });
    await client.playSeat("m3", "t", () => ({ action: 0 }), { changesOnly: true });
    assert.deepEqual(opens.map(opened), [
      { matchId: "m1", changesOnly: true, resume: undefined },
      { matchId: "m2", changesOnly: false, resume: 4n },
      { matchId: "m3", changesOnly: true, resume: undefined },
    ]);
  });

  it("opens a raw seat stream whole unless asked", async () => {
    const { client, opens } = recording();
    for (const options of [{}, { changesOnly: true }]) {
      const stream = client.seat("m", "t", options);
      for await (const _ of stream) assert.fail("the fake sends nothing");
    }
    assert.deepEqual(
      opens.map((r) => opened(r).changesOnly),
      [false, true],
    );
  });

  it("sends play's changesOnly", async () => {
    const { client, moves } = recording();
    await client.play("m", "t", { action: 3 }, { expectedVersion: 2 });
    await client.play("m", "t", { action: 3 }, { expectedVersion: 2, changesOnly: true });
    assert.deepEqual(
      moves.map((r) => [r.matchId, r.changesOnly, r.expectedVersion]),
      [
        ["m", false, 2n],
        ["m", true, 2n],
      ],
    );
  });

  it("sends a request id with every move, made up when none is given", async () => {
    const { client, moves, seatMoves } = recording();
    await client.play("m", "t", { action: 3 });
    await client.play("m", "t", { action: 3 }, { requestId: "mine" });
    const stream = client.seat("moves", "t");
    stream.play(0, { action: 1 });
    for await (const _ of stream) assert.fail("the fake sends nothing");
    const seatIds = seatMoves.map((r) => (r.kind.case === "play" ? r.kind.value.requestId : ""));
    assert.match(moves[0]!.requestId, /^[0-9a-f]{32}$/);
    assert.equal(moves[1]!.requestId, "mine");
    assert.match(seatIds[0] ?? "", /^[0-9a-f]{32}$/);
  });

  it("gives perft a deadline: its own, else the client's", async () => {
    const { client, perftDeadlines } = recording({ timeoutMs: 20_000 });
    const request = { config: { game: "g", players: 2 }, depth: 1 };
    for await (const _ of client.perft(request, { timeoutMs: 1_500 }));
    for await (const _ of client.perft(request));
    const [own, dflt] = perftDeadlines;
    assert.ok(own !== undefined && own > 0 && own <= 1_500, `own deadline ${own}`);
    assert.ok(dflt !== undefined && dflt > 1_500 && dflt <= 20_000, `the client's deadline ${dflt}`);
  });
});
