import { createGrpcTransport } from "@connectrpc/connect-node";
import { createClient } from "@connectrpc/connect";
import { create, toBinary, fromBinary } from "@bufbuild/protobuf";
import { MatchService, GetMatchRequestSchema, GetMatchResponseSchema } from "/work/wt-seat/clients/typescript/dist/src/gen/hunters/v1/matches_pb.js";
import { GameService } from "/work/wt-seat/clients/typescript/dist/src/gen/hunters/v1/games_pb.js";
const base = `http://${process.argv[2]}`;
const t = createGrpcTransport({ baseUrl: base });
const matches = createClient(MatchService, t);
const games = createClient(GameService, t);
const m = await matches.createMatch({ config: { game: "carcassonne_hg", players: 2, seed: 1n } });
const id = m.match.matchId;
async function run(name, f, n = 1000) {
  for (let i = 0; i < 50; i++) await f();
  const ts = []; const c0 = process.cpuUsage(); const w0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) { const t0 = process.hrtime.bigint(); await f(); ts.push(Number(process.hrtime.bigint() - t0) / 1e6); }
  const wall = Number(process.hrtime.bigint() - w0) / 1e6; const c = process.cpuUsage(c0);
  ts.sort((a, b) => a - b);
  console.log(name, "median", ts[n >> 1].toFixed(3), "ms; cpu/call", ((c.user + c.system) / 1e3 / n).toFixed(3), "ms; busy", ((c.user + c.system) / 1e3 / wall * 100).toFixed(0) + "%");
}
await run("getMatch", () => matches.getMatch({ matchId: id }));
await run("listLegalMoves", () => matches.listLegalMoves({ matchId: id }));
await run("listGames(empty-ish)", () => matches.getRecord({ matchId: id }).catch(() => 0));
const bytes = toBinary(GetMatchResponseSchema, await matches.getMatch({ matchId: id }));
await run("decode GetMatchResponse only", async () => fromBinary(GetMatchResponseSchema, bytes), 3000);
