/**
 * An external bot: plays one seat of an existing match with uniformly random legal moves (seeded)
 * until the match is over, then exits 0. This is the program `hunters arena` starts for a `cmd:` bot:
 *
 *   node dist/examples/seat-bot.js ADDRESS MATCH TOKEN SEAT [SEED]
 *   hunters arena --bot "cmd:node clients/typescript/dist/examples/seat-bot.js {address} {match} {token} {seat}" --bot random
 *
 * It watches the match; at each version where the state says its seat is to move, it lists the
 * legal moves and plays one with its seat token and the expected version (an event older than the
 * match is skipped: the match's later versions follow on the stream).
 */
import { HuntersClient, HuntersError } from "../src/index.js";

/** A small deterministic generator (32-bit LCG): the same seed picks the same moves. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Play `seat` of the match until it is over; returns the moves this seat played. */
export async function playSeat(
  client: HuntersClient,
  matchId: string,
  token: string,
  seat: number,
  random: () => number,
): Promise<number> {
  let played = 0;
  for await (const ev of client.watch(matchId)) {
    if (ev.matchOver) return played;
    if (ev.state.player !== seat) continue;
    const legal = await client.legalMoves(matchId);
    if (legal.version !== ev.version || legal.player !== seat) continue; // stale event: later ones follow
    const pick = legal.moves[Math.floor(random() * legal.moves.length)];
    if (pick === undefined) throw new Error(`no legal move at version ${legal.version}`);
    try {
      await client.play(matchId, token, { action: pick.action }, { expectedVersion: legal.version });
      played++;
    } catch (err) {
      if (err instanceof HuntersError && err.reason === "STALE_VERSION") continue;
      throw err;
    }
  }
  throw new Error("the match stream ended before the match was over");
}

async function main(argv: string[]): Promise<number> {
  const [address, matchId, token, seatText, seedText = "0"] = argv;
  const seat = Number(seatText);
  const seed = Number(seedText);
  const ok = address !== undefined && matchId !== undefined && token !== undefined;
  if (!ok || !Number.isInteger(seat) || seat < 0 || !Number.isInteger(seed)) {
    console.error("usage: seat-bot ADDRESS MATCH TOKEN SEAT [SEED]  (SEAT, SEED: integers)");
    return 2;
  }
  const client = new HuntersClient(address, { timeoutMs: 30_000 });
  await playSeat(client, matchId, token, seat, lcg(seed));
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
