/** Every kind of refusal as a HuntersError (code, reason, metadata), and safe retries of moves. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { Code as ConnectCode, ConnectError, type Interceptor } from "@connectrpc/connect";

import {
  Code,
  HuntersClient,
  HuntersError,
  carcassonneMove,
  jaegerMove,
  type CreatedMatch,
  type GameConfig,
} from "../src/index.js";
import { freePort, startServer, type Server } from "./server.js";

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
});
after(async () => server?.stop());

/** Assert that `p` fails with a HuntersError of this code and reason; returns it. */
async function refused(p: Promise<unknown>, code: Code, reason: string): Promise<HuntersError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof HuntersError, `not a HuntersError: ${String(err)}`);
    assert.deepEqual({ code: err.code, reason: err.reason }, { code, reason }, String(err));
    assert.equal(err.domain, "hunters.v1");
    return err;
  }
  assert.fail(`expected ${reason}, the call succeeded`);
}

const newMatch = (game = "carcassonne_hg", seed = 1): Promise<CreatedMatch> =>
  client.createMatch({ game, players: 2, seed });

describe("errors", () => {
  it("not found", async () => {
    const err = await refused(client.getMatch("no-such-match"), Code.NotFound, "MATCH_NOT_FOUND");
    assert.equal(err.codeName, "NOT_FOUND");
    assert.deepEqual(err.metadata, { match_id: "no-such-match" });
    await refused(client.legalMoves("no-such-match"), Code.NotFound, "MATCH_NOT_FOUND");
  });

  it("bad, missing and foreign tokens", async () => {
    const m = await newMatch();
    const other = await newMatch();
    const { moves } = await client.legalMoves(m.matchId);
    const play = { action: moves[0]!.action };
    const bad = await refused(client.play(m.matchId, "not-a-token", play), Code.PermissionDenied, "INVALID_TOKEN");
    assert.equal(bad.codeName, "PERMISSION_DENIED");
    assert.equal(bad.metadata.match_id, m.matchId);
    await refused(client.play(m.matchId, other.seatTokens[0]!, play), Code.PermissionDenied, "INVALID_TOKEN");
    await refused(client.play(m.matchId, "", play), Code.Unauthenticated, "MISSING_TOKEN");
    await refused(client.getRecord(m.matchId), Code.Unauthenticated, "MISSING_TOKEN");
    await refused(client.getRecord(m.matchId, m.seatTokens[0]), Code.PermissionDenied, "ADMIN_TOKEN_REQUIRED");
    assert.ok(await client.getRecord(m.matchId, m.adminToken));
    assert.equal((await client.getMatch(m.matchId)).version, 0, "refusals change nothing");
  });

  it("not your turn", async () => {
    const m = await newMatch();
    const { moves, player } = await client.legalMoves(m.matchId);
    const err = await refused(
      client.play(m.matchId, m.seatTokens[1 - player]!, { move: moves[0]!.move }),
      Code.FailedPrecondition,
      "NOT_YOUR_TURN",
    );
    assert.equal(err.metadata.player, String(player));
  });

  it("stale version", async () => {
    const m = await newMatch();
    const { moves } = await client.legalMoves(m.matchId);
    const token = m.seatTokens[0]!;
    const err = await refused(
      client.play(m.matchId, token, { action: moves[0]!.action }, { expectedVersion: 3 }),
      Code.Aborted,
      "STALE_VERSION",
    );
    assert.equal(err.metadata.current_version, "0");
    await client.play(m.matchId, token, { action: moves[0]!.action }, { expectedVersion: 0 });
    // a second writer that read version 0 loses
    const next = await client.legalMoves(m.matchId);
    await refused(
      client.play(m.matchId, m.seatTokens[next.player]!, { action: next.moves[0]!.action }, { expectedVersion: 0 }),
      Code.Aborted,
      "STALE_VERSION",
    );
  });

  it("illegal moves carry the engine's reason and change nothing", async () => {
    const m = await newMatch();
    const token = m.seatTokens[0]!;
    const err = await refused(
      client.play(m.matchId, token, { move: carcassonneMove({ x: 50, y: 50, rotation: 0 }) }),
      Code.FailedPrecondition,
      "NOT_ADJACENT",
    );
    assert.deepEqual(err.metadata, { match_id: m.matchId, version: "0" });
    await refused(client.play(m.matchId, token, { action: -1 }), Code.InvalidArgument, "MALFORMED");
    await refused(
      client.play(m.matchId, token, { move: jaegerMove([{ src: 1, dst: 2 }]) }),
      Code.InvalidArgument,
      "WRONG_GAME",
    );
    assert.equal((await client.getMatch(m.matchId)).version, 0);

    const j = await newMatch("jaeger_sammler", 4);
    const legal = await client.legalMoves(j.matchId);
    const body = legal.moves[0]!.move.game;
    assert.equal(body.case, "jaeger");
    const [step] = body.value.steps;
    // a step from the space the legal step goes to, where no character of the mover stands yet
    const jerr = await refused(
      client.play(j.matchId, j.seatTokens[legal.player]!, {
        move: jaegerMove([{ src: step!.dst!, dst: step!.src }, { src: step!.src, dst: step!.dst! }]),
      }),
      Code.FailedPrecondition,
      "NOT_YOUR_CHARACTER",
    );
    assert.ok(jerr.message.length > 0);
  });

  it("bad configurations", async () => {
    await refused(client.createMatch({ game: "chess", players: 2 }), Code.InvalidArgument, "UNKNOWN_GAME");
    await refused(client.createMatch({ game: "carcassonne_hg", players: 9 }), Code.InvalidArgument, "INVALID_CONFIG");
    // options of the other game, a menhir tile in the normal pile, a tile twice, a value out of range
    const bad: GameConfig[] = [
      { game: "carcassonne_hg", players: 2, jaeger: { stallRounds: 3 } },
      { game: "carcassonne_hg", players: 2, carcassonne: { normalDeck: { tiles: [88] } } },
      { game: "carcassonne_hg", players: 2, carcassonne: { normalDeck: { tiles: [3, 3] } } },
      { game: "jaeger_sammler", players: 2, jaeger: { stallRounds: -1 } },
      { game: "jaeger_sammler", players: 2, jaeger: { mammothsSummer: [99] } },
    ];
    for (const config of bad) {
      const err = await refused(client.createMatch(config), Code.InvalidArgument, "INVALID_CONFIG");
      assert.ok(err.message.length > 0, "the message names the problem");
    }
    await assert.rejects(client.createMatch({ game: "carcassonne_hg", players: 2, carcassonne: {}, jaeger: {} }), TypeError);
  });

  it("typed options are applied", async () => {
    const m = await client.createMatch({
      game: "carcassonne_hg",
      players: 2,
      seed: 4,
      carcassonne: { normalDeck: { tiles: [3, 17, 5] } },
    });
    const view = m.state.view;
    assert.equal(view.case, "carcassonne");
    assert.equal(view.value.tile, 3, "the first tile of the explicit pile is drawn first");
    assert.equal(view.value.normalPile, 2);
  });

  it("a server with an operator token creates matches only for it", async () => {
    const guarded = await startServer({ HUNTERS_CREATE_TOKEN: "operator-secret" });
    try {
      const c = new HuntersClient(guarded.address, { timeoutMs: 10_000 });
      const config = { game: "jaeger_sammler", players: 2, seed: 1 };
      await refused(c.createMatch(config), Code.Unauthenticated, "MISSING_TOKEN");
      await refused(c.createMatch(config, { createToken: "guess" }), Code.PermissionDenied, "CREATE_TOKEN_REQUIRED");
      const m = await c.createMatch(config, { createToken: "operator-secret" });
      assert.equal(m.seatTokens.length, 2);
    } finally {
      await guarded.stop();
    }
  });
});

describe("retries", () => {
  it("a repeated request id returns the first result and moves once", async () => {
    const m = await newMatch();
    const { moves } = await client.legalMoves(m.matchId);
    const token = m.seatTokens[0]!;
    const first = await client.play(m.matchId, token, { action: moves[0]!.action }, { requestId: "r-1" });
    const again = await client.play(m.matchId, token, { action: moves[0]!.action }, { requestId: "r-1" });
    assert.equal(first.version, 1);
    assert.equal(again.version, 1);
    assert.deepEqual(again.state.scores, first.state.scores);
    assert.equal((await client.getMatch(m.matchId)).version, 1);
    // the same id for a different move is refused
    const err = await refused(
      client.play(m.matchId, token, { action: moves[1]!.action }, { requestId: "r-1" }),
      Code.InvalidArgument,
      "REQUEST_ID_REUSED",
    );
    assert.equal(err.metadata.request_id, "r-1");
  });

  /** Lets the first `lose` calls of `method` reach the server, then drops their replies. */
  function losingReplies(lose: number, method = "PlayMove"): { interceptor: Interceptor; requestIds: string[] } {
    const requestIds: string[] = [];
    const interceptor: Interceptor = (next) => async (req) => {
      if (req.method.name !== method) return next(req);
      if (req.stream) return next(req);
      requestIds.push((req.message as unknown as { requestId: string }).requestId);
      const res = await next(req);
      if (requestIds.length <= lose) throw new ConnectError("reply lost", ConnectCode.Unavailable);
      return res;
    };
    return { interceptor, requestIds };
  }

  it("a lost reply is retried with the same request id and the move is applied once", async () => {
    const flaky = losingReplies(2);
    const c = new HuntersClient(server.address, { interceptors: [flaky.interceptor] });
    const m = await newMatch();
    const { moves } = await c.legalMoves(m.matchId);
    const r = await c.play(m.matchId, m.seatTokens[0]!, { action: moves[0]!.action }, { expectedVersion: 0 });
    assert.equal(r.version, 1);
    assert.equal(flaky.requestIds.length, 3);
    assert.equal(new Set(flaky.requestIds).size, 1, "every try carries the same request id");
    assert.equal((await c.getMatch(m.matchId)).version, 1);
  });

  it("gives up after its attempts with the transport's error", async () => {
    const flaky = losingReplies(5);
    const c = new HuntersClient(server.address, { interceptors: [flaky.interceptor] });
    const m = await newMatch();
    const { moves } = await c.legalMoves(m.matchId);
    await assert.rejects(
      c.play(m.matchId, m.seatTokens[0]!, { action: moves[0]!.action }, { attempts: 2 }),
      (err: unknown) =>
        err instanceof HuntersError &&
        err.code === Code.Unavailable &&
        err.reason === "UNAVAILABLE" &&
        err.message === "UNAVAILABLE UNAVAILABLE: reply lost",
    );
    assert.equal(flaky.requestIds.length, 2);
    assert.equal((await c.getMatch(m.matchId)).version, 1, "applied once although both replies were lost");
  });

  it("every move carries a request id: 32 hex digits made up when none is given", async () => {
    const flaky = losingReplies(0);
    const c = new HuntersClient(server.address, { interceptors: [flaky.interceptor] });
    const m = await newMatch();
    const { moves } = await c.legalMoves(m.matchId);
    await c.play(m.matchId, m.seatTokens[0]!, { action: moves[0]!.action });
    assert.match(flaky.requestIds[0]!, /^[0-9a-f]{32}$/);
  });

  it("a delete whose reply was lost is retried, and the retry's MATCH_NOT_FOUND means done", async () => {
    const flaky = losingReplies(1, "DeleteMatch");
    const c = new HuntersClient(server.address, { interceptors: [flaky.interceptor] });
    const m = await newMatch();
    await c.deleteMatch(m.matchId, m.adminToken);
    assert.equal(flaky.requestIds.length, 2);
    await refused(c.getMatch(m.matchId), Code.NotFound, "MATCH_NOT_FOUND");
    await refused(c.deleteMatch(m.matchId, m.adminToken), Code.NotFound, "MATCH_NOT_FOUND");
  });

  it("no server: UNAVAILABLE with the code's name as reason; a move is tried ATTEMPTS times", async () => {
    const port = await freePort();
    const tries: string[] = [];
    const counting: Interceptor = (next) => async (req) => {
      tries.push(req.method.name);
      return next(req);
    };
    const c = new HuntersClient(`127.0.0.1:${port}`, { interceptors: [counting] });
    await assert.rejects(c.getMatch("m"), (err: unknown) => {
      assert.ok(err instanceof HuntersError);
      assert.deepEqual([err.codeName, err.reason, err.domain], ["UNAVAILABLE", "UNAVAILABLE", ""]);
      assert.ok(err.message.startsWith("UNAVAILABLE UNAVAILABLE: "), err.message);
      return true;
    });
    await assert.rejects(c.play("m", "t", { action: 0 }), (err: unknown) => err instanceof HuntersError && err.reason === "UNAVAILABLE");
    assert.deepEqual(tries, ["GetMatch", "PlayMove", "PlayMove", "PlayMove"]);
  });

  it("refusals are not retried", async () => {
    const flaky = losingReplies(0);
    const c = new HuntersClient(server.address, { interceptors: [flaky.interceptor] });
    const m = await newMatch();
    const { moves } = await c.legalMoves(m.matchId);
    await assert.rejects(c.play(m.matchId, m.seatTokens[0]!, { action: moves[0]!.action }, { expectedVersion: 7 }));
    assert.equal(flaky.requestIds.length, 1);
  });
});
