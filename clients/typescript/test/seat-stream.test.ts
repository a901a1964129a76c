/** The seat stream (PlaySeat): a whole game by two stream bots, refusals on the stream, a bad token. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { HuntersClient, HuntersError, MatchStatus, type MatchEvent } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
});
after(async () => server?.stop());

describe("seat stream", () => {
  it("sends what changed in its versions, whole turns, and the board only when asked", async () => {
    for (const changesOnly of [undefined, false]) {
      const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 24 });
      const views: string[][] = [[], []];
      const turnViews: string[] = [];
      await Promise.all(
        [0, 1].map((seat) =>
          client.playSeat(
            match.matchId,
            match.seatTokens[seat]!,
            (turn) => {
              turnViews.push(String(turn.state.view.case));
              return { action: turn.moves[0]!.action };
            },
            { onEvent: (event) => views[seat]!.push(String(event.state.view.case)), changesOnly },
          ),
        ),
      );
      const want = changesOnly === false ? "carcassonne" : "undefined"; // changes-only unless asked
      for (const seen of views) assert.ok(seen.length > 40 && seen.every((v) => v === want), `${changesOnly}: ${seen}`);
      assert.ok(turnViews.every((v) => v === "carcassonne"));
    }
    const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 25 });
    const legal = await client.legalMoves(match.matchId);
    const reply = await client.play(match.matchId, match.seatTokens[legal.player]!, { action: legal.moves[0]!.action }, {
      changesOnly: true,
    });
    assert.equal(reply.version, 1);
    assert.equal(reply.state.view.case, undefined);
    assert.equal(reply.state.scores.length, 2);
  });

  it("plays a whole game with two stream bots", async () => {
    const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 21 });
    const seen: number[][] = [[], []];
    const turns: number[][] = [[], []];
    const bots = [0, 1].map((seat) =>
      client.playSeat(
        match.matchId,
        match.seatTokens[seat]!,
        (turn) => {
          assert.equal(turn.seat, seat);
          turns[seat]!.push(turn.version);
          return { action: turn.moves[Math.floor(turn.moves.length / 2)]!.action };
        },
        { onEvent: (ev: MatchEvent) => seen[seat]!.push(ev.version) },
      ),
    );
    const [a, b] = await Promise.all(bots);
    const final = await client.getMatch(match.matchId);
    assert.equal(final.status, MatchStatus.OVER);
    assert.ok(final.version > 40);
    for (const last of [a, b]) assert.ok(last?.matchOver && last.version === final.version);
    const all = Array.from({ length: final.version + 1 }, (_, v) => v);
    assert.deepEqual(seen[0], all);
    assert.deepEqual(seen[1], all);
    assert.deepEqual([...turns[0]!, ...turns[1]!].sort((x, y) => x - y), all.slice(0, -1));
  });

  it("refuses a stale version and an illegal move on the stream, the turn offered again", async () => {
    const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 22 });
    const stream = client.seat(match.matchId, match.seatTokens[0]!);
    const refusals: string[] = [];
    let turns = 0;
    for await (const m of stream) {
      if (m.kind === "turn") {
        turns++;
        if (turns === 1) stream.play(5, { action: m.turn.moves[0]!.action });
        else if (turns === 2) stream.play(m.turn.version, { action: 1_000_000 });
        else break;
      } else if (m.kind === "refused") refusals.push(m.reason);
    }
    stream.close();
    assert.equal(refusals[0], "STALE_VERSION");
    assert.equal(refusals.length, 2);
    assert.equal((await client.getMatch(match.matchId)).version, 0);
    await assert.rejects(
      client.playSeat(match.matchId, match.seatTokens[0]!, () => ({ action: 1_000_000 })),
      (err: unknown) => err instanceof HuntersError && err.reason === refusals[1],
    );
  });

  it("ends with PERMISSION_DENIED for a bad token", async () => {
    const match = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 23 });
    await assert.rejects(
      client.playSeat(match.matchId, "0".repeat(64), () => ({ action: 0 })),
      (err: unknown) => err instanceof HuntersError && err.reason === "INVALID_TOKEN",
    );
  });
});
