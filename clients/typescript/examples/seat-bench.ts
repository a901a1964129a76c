/**
 * Moves per second of one match played by two bots on loopback: each bot on its seat stream
 * (`client.playSeat`), against each bot following `watch` and calling `legalMoves` then `play` at
 * its turns (the loop before seat streams). Both sides play the same games (same seeds, the middle
 * legal move), alternating; prints the medians and their ratio.
 *
 *   node dist/examples/seat-bench.js ADDRESS [GAMES]
 */
import { HuntersClient, type LegalMove } from "../src/index.js";

const middle = (moves: LegalMove[]) => moves[Math.floor(moves.length / 2)]!.action;

async function streamBot(c: HuntersClient, matchId: string, token: string): Promise<void> {
  await c.playSeat(matchId, token, (turn) => ({ action: middle(turn.moves) }));
}

async function watchBot(c: HuntersClient, matchId: string, token: string, seat: number): Promise<void> {
  for await (const ev of c.watch(matchId)) {
    if (ev.matchOver) return;
    if (ev.state.player !== seat) continue;
    const legal = await c.legalMoves(matchId);
    if (legal.version !== ev.version || legal.player !== seat) continue; // an old event
    await c.play(matchId, token, { action: middle(legal.moves) }, { expectedVersion: legal.version, changesOnly: true });
  }
}

async function game(address: string, seed: number, stream: boolean): Promise<number> {
  const c = new HuntersClient(address);
  const m = await c.createMatch({ game: "carcassonne_hg", players: 2, seed });
  const bots = [new HuntersClient(address), new HuntersClient(address)];
  await Promise.all(bots.map((b) => b.getMatch(m.matchId))); // connected before the clock starts
  const t0 = process.hrtime.bigint();
  await Promise.all(
    bots.map((b, s) => (stream ? streamBot(b, m.matchId, m.seatTokens[s]!) : watchBot(b, m.matchId, m.seatTokens[s]!, s))),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return (await c.getMatch(m.matchId)).version / seconds;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(argv: string[]): Promise<number> {
  const [address, gamesText = "10"] = argv;
  if (address === undefined) {
    console.error("usage: seat-bench ADDRESS [GAMES]");
    return 2;
  }
  const rates: Record<"stream" | "watch", number[]> = { stream: [], watch: [] };
  for (let g = 0; g < Number(gamesText); g++) {
    for (const stream of g % 2 === 0 ? [true, false] : [false, true]) {
      rates[stream ? "stream" : "watch"].push(await game(address, 500 + g, stream));
    }
  }
  const s = median(rates.stream);
  const w = median(rates.watch);
  console.log(`typescript: stream ${s.toFixed(0)} moves/s, watch+unary ${w.toFixed(0)} moves/s, ratio ${(s / w).toFixed(2)}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(String(err));
      process.exit(1);
    },
  );
}
