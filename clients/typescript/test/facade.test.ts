/** Every RPC of the contract has a facade method; the methods beyond play: bots, listing, deleting. */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import type { DescService } from "@bufbuild/protobuf";
import { Code as ConnectCode, ConnectError } from "@connectrpc/connect";

import { Code, HuntersClient, HuntersError, MatchStatus, RPC_METHODS } from "../src/index.js";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { startServer, type Server } from "./server.js";

/** Every service of hunters.v1, from the generated descriptors (each *_pb.js file of gen/hunters/v1). */
async function contractServices(): Promise<DescService[]> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "gen", "hunters", "v1");
  const services: DescService[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith("_pb.js")).sort()) {
    const mod = (await import(pathToFileURL(join(dir, name)).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "service") {
        services.push(value as DescService);
      }
    }
  }
  return services;
}

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
});
after(async () => server?.stop());

describe("facade", () => {
  it("has a method for every RPC of the contract", async () => {
    const services = await contractServices();
    assert.deepEqual(services.map((s) => s.typeName).sort(), [
      "hunters.v1.GameService",
      "hunters.v1.MatchService",
      "hunters.v1.OracleService",
    ]);
    const rpcs = services.flatMap((s) => s.methods.map((m) => `${s.typeName}.${m.name}`));
    const methods: Record<string, string> = RPC_METHODS;
    const missing = rpcs.filter((rpc) => typeof (client as unknown as Record<string, unknown>)[methods[rpc] ?? ""] !== "function");
    assert.deepEqual(missing, [], "RPCs without a facade method (add them to RPC_METHODS and HuntersClient)");
    assert.deepEqual(Object.keys(RPC_METHODS).sort(), rpcs.sort(), "RPC_METHODS names only RPCs of the contract");
  });

  it("a server-side bot plays its seat; the result says when the game is over", async () => {
    const m = await client.createMatch({ game: "jaeger_sammler", players: 2, seed: 5, bots: { 1: "random" } });
    assert.deepEqual(m.bots, { 1: "random" });
    assert.ok(m.createdAt instanceof Date && Math.abs(m.createdAt.getTime() - Date.now()) < 60_000);
    assert.equal(m.seed, undefined, "the seed is hidden until the end");
    let last;
    let version = 0;
    let overBy = "";
    for (let i = 0; i < 2000; i++) {
      const turn = await client.waitTurn(m.matchId, 0, { fromVersion: version });
      assert.ok(turn !== undefined);
      if (turn.matchOver) {
        overBy = "bot";
        assert.deepEqual(turn.state.winners, (await client.getMatch(m.matchId)).state.winners);
        break;
      }
      const legal = await client.legalMoves(m.matchId);
      assert.equal(legal.player, 0, "the server's bot has moved already");
      assert.equal(legal.version, turn.version);
      last = await client.play(m.matchId, m.seatTokens[0]!, { action: legal.moves[0]!.action }, { expectedVersion: legal.version });
      version = last.version;
      if (last.isOver) {
        overBy = "me";
        assert.ok(last.winners.length >= 1);
        assert.deepEqual(last.winners, (await client.getMatch(m.matchId)).state.winners);
        break;
      }
      assert.deepEqual(last.winners, []);
    }
    assert.notEqual(overBy, "", "the game ended");
    const end = await client.getMatch(m.matchId);
    assert.equal(end.status, MatchStatus.OVER);
    assert.ok(end.state.winners.length >= 1);
    assert.ok(end.version > 2 * version / 3, "the bot moved too");
    assert.equal(end.seed, 5n, "shown once over");
    // the bot seat refuses moves by token
    const b = await client.createMatch({ game: "carcassonne_hg", players: 2, seed: 1, bots: { 0: "random" } });
    await client.waitTurn(b.matchId, 1);
    const legal = await client.legalMoves(b.matchId);
    assert.equal(legal.player, 1);
    const err = await client
      .play(b.matchId, b.seatTokens[0]!, { action: legal.moves[0]!.action })
      .then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof HuntersError);
    assert.equal(err.reason, "SEAT_PLAYED_BY_BOT");
    assert.equal(err.code, Code.FailedPrecondition);
    assert.deepEqual(err.metadata, { match_id: b.matchId, seat: "0" });
    // one text: code, reason once, the server's message in the contract's words
    assert.equal(err.rawMessage, "seat 0 is played by the server's bot");
    assert.equal(err.message, "FAILED_PRECONDITION SEAT_PLAYED_BY_BOT: seat 0 is played by the server's bot");
    assert.equal(String(err), "HuntersError: FAILED_PRECONDITION SEAT_PLAYED_BY_BOT: seat 0 is played by the server's bot");
  });

  it("reads an older server's 'REASON: message' as the message alone", () => {
    const info = { reason: "STALE_VERSION", domain: "hunters.v1", metadata: { current_version: "0" } };
    const old = new ConnectError("STALE_VERSION: expected version 3, the match is at 0", ConnectCode.Aborted, undefined, [
      { desc: ErrorInfoSchema, value: info },
    ]);
    const err = HuntersError.from(old);
    assert.equal(err.rawMessage, "expected version 3, the match is at 0");
    assert.equal(err.message, "ABORTED STALE_VERSION: expected version 3, the match is at 0");
    assert.deepEqual(err.metadata, { current_version: "0" });
  });

  it("lists matches page by page and deletes them", async () => {
    const made = [];
    for (let seed = 1; seed <= 3; seed++) made.push(await client.createMatch({ game: "carcassonne_hg", players: 2, seed }));
    const j = await client.createMatch({ game: "jaeger_sammler", players: 3, seed: 1 });
    const page = await client.listMatches({ game: "carcassonne_hg", pageSize: 2 });
    assert.equal(page.matches.length, 2);
    assert.notEqual(page.nextPageToken, "");
    const ids: string[] = [];
    for await (const m of client.allMatches({ game: "carcassonne_hg", pageSize: 2 })) {
      assert.equal(m.game, "carcassonne_hg");
      ids.push(m.matchId);
    }
    for (const m of made) assert.ok(ids.includes(m.matchId));
    assert.ok(!ids.includes(j.matchId));

    const gone = made[0]!;
    const notAdmin = await client.deleteMatch(gone.matchId, gone.seatTokens[0]!).then(() => undefined, (e: unknown) => e);
    assert.ok(notAdmin instanceof HuntersError && notAdmin.reason === "ADMIN_TOKEN_REQUIRED");
    await client.deleteMatch(gone.matchId, gone.adminToken);
    const err = await client.getMatch(gone.matchId).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof HuntersError && err.reason === "MATCH_NOT_FOUND");
  });
});
