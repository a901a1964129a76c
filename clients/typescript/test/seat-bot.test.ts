/** The external seat bot as a program: it plays one seat of a real match while the test plays the other. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";

import { HuntersClient, MatchStatus } from "../src/index.js";
import { lcg } from "../examples/seat-bot.js";
import { startServer, type Server } from "./server.js";

const BOT = fileURLToPath(new URL("../examples/seat-bot.js", import.meta.url));

let server: Server;
let client: HuntersClient;

before(async () => {
  server = await startServer();
  client = new HuntersClient(server.address, { timeoutMs: 10_000 });
});
after(async () => server?.stop());

interface Run {
  code: number | null;
  stderr: string;
}

function runBot(args: string[]): { done: Promise<Run>; kill: () => void } {
  const child = spawn(process.execPath, [BOT, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((ok) => child.once("exit", (code) => ok({ code, stderr })));
  return { done, kill: () => child.kill("SIGKILL") };
}

/**
 * A match of `game` where the bot program plays `botSeat` (bot seed `botSeed`) and this test plays
 * the other seats by polling the legal moves; returns the seats and action codes of every move.
 */
async function playAgainstBot(game: string, seed: number, botSeat: number, botSeed: number) {
  const match = await client.createMatch({ game, players: 2, seed });
  const bot = runBot([server.address, match.matchId, match.seatTokens[botSeat]!, String(botSeat), String(botSeed)]);
  const random = lcg(seed + 1000);
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      assert.ok(Date.now() < deadline, "the match did not end within a minute");
      const legal = await client.legalMoves(match.matchId);
      if (legal.moves.length === 0) break; // over
      if (legal.player === botSeat) {
        await sleep(2);
        continue;
      }
      const pick = legal.moves[Math.floor(random() * legal.moves.length)]!;
      await client.play(match.matchId, match.seatTokens[legal.player]!, { action: pick.action }, {
        expectedVersion: legal.version,
        changesOnly: true, // this loop reads the legal moves, never the reply's state
      });
    }
    const run = await Promise.race([bot.done, sleep(10_000).then(() => undefined)]);
    assert.ok(run !== undefined, "the bot did not exit after the match ended");
    assert.equal(run.code, 0, `the bot failed: ${run.stderr}`);
  } finally {
    bot.kill();
  }
  const final = await client.getMatch(match.matchId);
  assert.equal(final.status, MatchStatus.OVER);
  const seats: number[] = [];
  const record = (await client.getRecord(match.matchId)) as { moves: unknown[] };
  for await (const ev of client.watch(match.matchId)) {
    if (ev.seat !== undefined) seats.push(ev.seat);
  }
  assert.equal(seats.length, final.version);
  assert.equal(record.moves.length, final.version);
  return { seats, record };
}

describe("seat bot", () => {
  it("plays its seat of a carcassonne_hg match to the end, seeded", async () => {
    const a = await playAgainstBot("carcassonne_hg", 11, 1, 5);
    const botMoves = a.seats.filter((s) => s === 1).length;
    assert.ok(botMoves > 20, `the bot played ${botMoves} moves`);
    assert.ok(a.seats.includes(0));
    // same game seed, same bot seed, same test moves: the same game, move for move
    const b = await playAgainstBot("carcassonne_hg", 11, 1, 5);
    assert.deepEqual(b.record.moves, a.record.moves);
    // another bot seed: another game
    const c = await playAgainstBot("carcassonne_hg", 11, 1, 6);
    assert.notDeepEqual(c.record.moves, a.record.moves);
  });

  it("plays seat 0 of a jaeger_sammler match to the end", async () => {
    const r = await playAgainstBot("jaeger_sammler", 3, 0, 9);
    assert.ok(r.seats.filter((s) => s === 0).length > 5);
  });

  it("refuses bad arguments with a usage line and status 2", async () => {
    const run = await runBot([server.address, "m"]).done;
    assert.equal(run.code, 2);
    assert.match(run.stderr, /usage: seat-bot ADDRESS MATCH TOKEN SEAT/);
  });
});
