import { createGrpcTransport } from "@connectrpc/connect-node";
import { createClient } from "@connectrpc/connect";
import { MatchService } from "/work/wt-seat/clients/typescript/dist/src/gen/hunters/v1/matches_pb.js";
const t = createGrpcTransport({ baseUrl: `http://${process.argv[2]}` });
const matches = createClient(MatchService, t);
const m = await matches.createMatch({ config: { game: "carcassonne_hg", players: 2, seed: 1n } });
for (let i = 0; i < 3000; i++) await matches.getMatch({ matchId: m.match.matchId });
