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

/** A client on a fake MatchService: each seat stream's first request and each PlayMove request. */
function recording(): { client: HuntersClient; opens: PlaySeatRequest[]; moves: PlayMoveRequest[] } {
  const opens: PlaySeatRequest[] = [];
  const moves: PlayMoveRequest[] = [];
  const transport = createRouterTransport(({ service }) => {
    service(MatchService, {
      async *playSeat(requests) {
        for await (const r of requests) {
          opens.push(r);
          return; // ends the stream: the match has no more versions
        }
      },
      playMove(request) {
        moves.push(request);
        return { version: request.expectedVersion ?? 0n, state: {} };
      },
    });
  });
  return { client: new HuntersClient("127.0.0.1:1", { transport }), opens, moves };
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
});
