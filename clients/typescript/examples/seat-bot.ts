/**
 * An external bot: plays one seat of an existing match with uniformly random legal moves (seeded)
 * until the match is over, then exits 0. This is the program `hunters arena` starts for a `cmd:` bot:
 *
 *   node dist/examples/seat-bot.js ADDRESS MATCH TOKEN SEAT [SEED]
 *   hunters arena --bot "cmd:node clients/typescript/dist/examples/seat-bot.js {address} {match} {token} {seat}" --bot random
 *
 * It plays on its seat stream (`client.playSeat`: one PlaySeat stream): the server offers each turn
 * with the legal moves and their action codes, and the bot answers with one code.
 */
import { HuntersClient } from "../src/index.js";

/** A small deterministic generator (32-bit LCG): the same seed picks the same moves. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Play the token's seat of the match until it is over; returns the moves this seat played. */
export async function playSeat(
  client: HuntersClient,
  matchId: string,
  token: string,
  seat: number,
  random: () => number,
): Promise<number> {
  let played = 0;
  const last = await client.playSeat(matchId, token, (turn) => {
    if (turn.seat !== seat) throw new Error(`the token is seat ${turn.seat}, not ${seat}`);
    const pick = turn.moves[Math.floor(random() * turn.moves.length)];
    if (pick === undefined) throw new Error(`no legal move at version ${turn.version}`);
    played++;
    return { action: pick.action };
  });
  if (!last?.matchOver) throw new Error("the match stream ended before the match was over");
  return played;
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
