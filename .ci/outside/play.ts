/**
 * A project outside the repository using the installed TypeScript client (`npm install
 * hunters-engine-client-*.tgz`): one complete game of each game against `hunters serve`, one seat played by
 * the server's own bot. Prints one JSON line per game; exits non-zero on anything unexpected.
 *   node play.js ADDRESS
 */
import { HuntersClient, isOver, type GameConfig } from "hunters-engine-client";
import { MatchStatus } from "hunters-engine-client/gen/hunters/v1/matches_pb.js";
import { GameStatus } from "hunters-engine-client/gen/hunters/v1/state_pb";

function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(what);
}

async function playAgainstBot(client: HuntersClient, config: GameConfig, me: number): Promise<object> {
  const m = await client.createMatch(config);
  check(JSON.stringify(m.bots) === JSON.stringify(config.bots), `bot seats ${JSON.stringify(m.bots)}`);
  let version = 0;
  let mine = 0;
  let random = 12345;
  for (;;) {
    const turn = await client.waitTurn(m.matchId, me, { fromVersion: version });
    check(turn !== undefined, "the match ended before it was over");
    if (turn.matchOver) break;
    const legal = await client.legalMoves(m.matchId);
    check(legal.player === me && legal.version === turn.version, "not my turn after waiting for it");
    random = (Math.imul(random, 1664525) + 1013904223) >>> 0;
    const pick = legal.moves[random % legal.moves.length];
    check(pick !== undefined, "no legal move");
    const r = await client.play(m.matchId, m.seatTokens[me]!, { action: pick.action }, { expectedVersion: legal.version });
    mine++;
    version = r.version;
    if (r.isOver) {
      check(r.winners.length > 0, "no winner at the end");
      break;
    }
  }
  const end = await client.getMatch(m.matchId);
  check(end.status === MatchStatus.OVER && end.state.status === GameStatus.OVER && isOver(end.state), "not over");
  const bySeat = new Map<number, number>();
  for await (const ev of client.watch(m.matchId)) {
    if (ev.seat !== undefined) bySeat.set(ev.seat, (bySeat.get(ev.seat) ?? 0) + 1);
  }
  const botSeat = Number(Object.keys(config.bots ?? {})[0]);
  check(bySeat.get(me) === mine, `my moves: ${bySeat.get(me)} != ${mine}`);
  check((bySeat.get(botSeat) ?? 0) > 0 && mine + (bySeat.get(botSeat) ?? 0) === end.version, "the bot's moves");
  const record = (await client.getRecord(m.matchId)) as { moves?: unknown[] };
  check(Array.isArray(record.moves) && record.moves.length === end.version, "the record has every move");
  return {
    client: "typescript",
    game: config.game,
    match: m.matchId,
    moves: end.version,
    bot_moves: bySeat.get(botSeat),
    scores: end.state.scores,
    winners: end.state.winners,
  };
}

const address = process.argv[2];
if (!address) throw new Error("usage: node play.js ADDRESS");
const client = new HuntersClient(address, { timeoutMs: 30_000 });
const games = (await client.listGames()).map((g) => g.game).sort();
check(JSON.stringify(games) === JSON.stringify(["carcassonne_hg", "jaeger_sammler"]), `games ${games}`);
for (const [config, me] of [
  [{ game: "carcassonne_hg", players: 2, seed: 7, bots: { 1: "greedy" } }, 0],
  [{ game: "jaeger_sammler", players: 2, seed: 7, bots: { 0: "random" } }, 1],
] as [GameConfig, number][]) {
  console.log(JSON.stringify(await playAgainstBot(client, config, me)));
}
