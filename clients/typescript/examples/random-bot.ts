/**
 * A random bot: creates a match and plays every seat with uniformly random legal moves until the
 * game is over, then prints the scores.
 *
 *   node dist/examples/random-bot.js [address] [game] [players] [seed]
 *   e.g. node dist/examples/random-bot.js 127.0.0.1:50051 jaeger_sammler 3 7
 */
import { HuntersClient, isOver } from "../src/index.js";

export async function playRandomGame(
  client: HuntersClient,
  game: string,
  players: number,
  seed: number,
  random: () => number = Math.random,
): Promise<{ matchId: string; moves: number; scores: number[]; winners: number[] }> {
  const match = await client.createMatch({ game, players, seed });
  let version = match.version;
  let over = isOver(match.state);
  while (!over) {
    const legal = await client.legalMoves(match.matchId);
    const pick = legal.moves[Math.floor(random() * legal.moves.length)];
    if (pick === undefined) throw new Error(`no legal move at version ${legal.version}`);
    const token = match.seatTokens[legal.player];
    if (token === undefined) throw new Error(`no token for seat ${legal.player}`);
    const result = await client.play(match.matchId, token, { action: pick.action }, {
      expectedVersion: legal.version,
      changesOnly: true, // the reply's version and status are all this loop reads
    });
    version = result.version;
    over = isOver(result.state);
  }
  const final = await client.getMatch(match.matchId);
  return { matchId: match.matchId, moves: version, scores: final.state.scores, winners: final.state.winners };
}

async function main(): Promise<void> {
  const [address = "127.0.0.1:50051", game = "carcassonne_hg", players = "2", seed = "1"] = process.argv.slice(2);
  const client = new HuntersClient(address);
  const start = performance.now();
  const result = await playRandomGame(client, game, Number(players), Number(seed));
  const ms = Math.round(performance.now() - start);
  console.log(
    `${game} match ${result.matchId}: ${result.moves} moves in ${ms} ms; scores ${result.scores.join(", ")}; ` +
      `winners ${result.winners.join(", ")}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(String(err));
    process.exit(1);
  });
}
