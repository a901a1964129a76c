/**
 * The client conformance scenario (clients/scenario/scenario.json) run by the TypeScript client:
 * one line a step on stdout, the transcript every client of the project must print alike
 * (clients/scenario/README.md says what each op does and prints).
 *
 *   node dist/scenario/run.js ADDRESS [SCENARIO]     (after `npm run build`)
 *
 * A connect interceptor counts each call's tries and loses replies where a step asks it to, so that
 * a retry is seen in the transcript.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import {
  HuntersClient,
  HuntersError,
  type CreatedMatch,
  type LegalMoves,
  type Play,
} from "../src/index.js";
import { freePort } from "../test/server.js"; // a loopback port that nothing listens on
import { playBySeatStream, playByUnary } from "./play.js";
import { analyze, getReview, requestReview, review } from "./review.js";
import {
  COUNTED,
  Failed,
  Hook,
  RPC_OF,
  botsOf,
  errorText,
  index,
  span,
  stateFields,
  status,
  value,
  type Fields,
  type Step,
} from "./transcript.js";

const SCENARIO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "scenario", "scenario.json");

export class Run {
  matches = new Map<string, CreatedMatch>();
  labels = new Map<string, string>();
  legal = new Map<string, LegalMoves>();
  nextToken = "";
  more: [string, HuntersError][] = [];

  constructor(
    readonly client: HuntersClient,
    readonly gone: HuntersClient,
    readonly hook: Hook,
  ) {}

  canon(text: string): string {
    for (const [id, label] of this.labels) text = text.replaceAll(id, `<${label}>`);
    return text;
  }

  label(id: string): string {
    return this.labels.get(id) ?? "?";
  }

  async run(steps: Step[]): Promise<void> {
    for (const step of steps) {
      this.hook.reset();
      const c = step.server === "gone" ? this.gone : this.client;
      const counted = COUNTED.has(step.op) || step.server === "gone";
      let fields: Fields = [];
      let error: HuntersError | undefined;
      try {
        fields = await this.op(step.op as string)(c, step);
      } catch (err) {
        if (err instanceof Failed) [fields, error] = [err.fields, err.err];
        else if (err instanceof HuntersError) error = err;
        else throw err;
      }
      if (counted) fields = [...fields, ["attempts", this.hook.requests(RPC_OF[step.op]!).length]];
      const words = [`${step.name}:`, error ? "error" : "ok", ...fields.map(([k, v]) => `${k}=${value(v)}`)];
      if (error) words.push("|", errorText(error));
      console.log(this.canon(words.join(" ")));
      for (const [name, err] of this.more) console.log(this.canon(`${step.name} ${name}: error | ${errorText(err)}`));
      this.more = [];
    }
  }

  op(name: string): (c: HuntersClient, step: Step) => Promise<Fields> {
    const ops: Record<string, (c: HuntersClient, step: Step) => Promise<Fields>> = {
      list_games: this.listGames,
      game_info: this.gameInfo,
      create_match: this.createMatch,
      get_match: this.getMatch,
      legal_moves: this.legalMoves,
      play: this.play,
      wait_turn: this.waitTurn,
      watch: this.watch,
      get_record: this.getRecord,
      delete_match: this.deleteMatch,
      list_matches: this.listMatches,
      all_matches: this.allMatches,
      seat_open: this.seatOpen,
      play_by_unary: (c, step) => playByUnary(this, c, step),
      play_by_seat_stream: (c, step) => playBySeatStream(this, c, step),
      perft: this.perft,
      evaluate: this.evaluate,
      simulate: this.simulate,
      conformance_vectors: this.conformanceVectors,
      analyze: (c, step) => analyze(this, c, step),
      request_review: (c, step) => requestReview(this, c, step),
      get_review: (c, step) => getReview(this, c, step),
      review: (c, step) => review(this, c, step),
    };
    const op = ops[name];
    if (op === undefined) throw new Error(`unknown op ${name}`);
    return op.bind(this);
  }

  // -- helpers -------------------------------------------------------------------------------------
  matchId(step: Step): string {
    return step.match_id ?? this.matches.get(step.match)!.matchId;
  }

  token(step: Step): string {
    const name: string = step.token ?? "";
    const m = this.matches.get(step.match ?? "");
    if (m !== undefined && /^seat\d+$/.test(name)) return m.seatTokens[Number(name.slice(4))]!;
    if (m !== undefined && name === "admin") return m.adminToken;
    return name;
  }

  async chosen(c: HuntersClient, step: Step): Promise<{ move: Play; action: number }> {
    const label: string = step.match;
    let legal: LegalMoves;
    if (step.pick_at !== undefined) legal = this.legal.get(`${label}/${step.pick_at}`)!;
    else {
      legal = await c.legalMoves(this.matches.get(label)!.matchId);
      this.legal.set(`${label}/${legal.version}`, legal);
    }
    const m = legal.moves[index(legal.version, legal.moves.length, step.offset ?? 0)]!;
    return { move: { move: m.move }, action: m.action };
  }

  // -- ops -------------------------------------------------------------------------------------
  async listGames(c: HuntersClient): Promise<Fields> {
    return [["games", (await c.listGames()).map((g) => g.game).sort()]];
  }

  async gameInfo(c: HuntersClient, step: Step): Promise<Fields> {
    const info = await c.gameInfo(step.game);
    const s = info.summary;
    return [
      ["game", s.game],
      ["players", `${s.minPlayers}..${s.maxPlayers}`],
      ["action_space", s.actionSpaceSize],
      ["details", info.details.case],
    ];
  }

  async createMatch(c: HuntersClient, step: Step): Promise<Fields> {
    const bots = Object.fromEntries(Object.entries(step.bots ?? {}).map(([seat, spec]) => [Number(seat), spec as string]));
    const m = await c.createMatch({ game: step.game, players: step.players, seed: step.seed, bots, hints: step.hints ?? false });
    if (step.as !== undefined) {
      this.matches.set(step.as, m);
      this.labels.set(m.matchId, step.as);
    }
    return [
      ["game", m.game],
      ["version", m.version],
      ["players", m.players],
      ["status", status(m.status)],
      ["bots", botsOf(m.bots)],
      ["seat_tokens", m.seatTokens.length],
      ["admin_token", m.adminToken !== ""],
    ];
  }

  async getMatch(c: HuntersClient, step: Step): Promise<Fields> {
    const m = await c.getMatch(this.matchId(step));
    return [
      ["game", m.game],
      ["version", m.version],
      ["player", m.state.player],
      ["status", status(m.status)],
      ...stateFields(m.state),
      ["seed", m.seed === undefined ? "hidden" : m.seed],
      ["bots", botsOf(m.bots)],
      ["hints", m.hints],
    ];
  }

  async legalMoves(c: HuntersClient, step: Step): Promise<Fields> {
    const legal = await c.legalMoves(this.matchId(step));
    this.legal.set(`${step.match}/${legal.version}`, legal);
    return [
      ["version", legal.version],
      ["player", legal.player],
      ["moves", legal.moves.length],
    ];
  }

  async play(c: HuntersClient, step: Step): Promise<Fields> {
    let play: Play;
    if (step.action !== undefined) play = { action: step.action };
    else {
      const chosen = await this.chosen(c, step);
      play = step.by === "action" ? { action: chosen.action } : chosen.move;
    }
    if (step.lose_replies !== undefined) this.hook.losing.set("PlayMove", step.lose_replies);
    const r = await c.play(this.matchId(step), this.token(step), play, {
      expectedVersion: step.expected_version,
      requestId: step.request_id,
    });
    const fields: Fields = [
      ["version", r.version],
      ["over", r.isOver],
      ["winners", r.winners],
    ];
    const tries = this.hook.requests("PlayMove") as { requestId: string }[];
    if (tries.length > 1) {
      const ids = new Set(tries.map((t) => t.requestId));
      fields.push(["same_request_id", ids.size === 1 && !ids.has("")]);
    }
    return fields;
  }

  async waitTurn(c: HuntersClient, step: Step): Promise<Fields> {
    const ev = await c.waitTurn(this.matchId(step), step.seat, { fromVersion: step.from });
    if (ev === undefined) return [["ended", true]];
    return [
      ["version", ev.version],
      ["player", ev.state.player],
      ["over", ev.matchOver],
    ];
  }

  async watch(c: HuntersClient, step: Step): Promise<Fields> {
    const seen = new Set<number>();
    try {
      for await (const ev of c.watch(this.matchId(step), { fromVersion: step.from, timeoutMs: step.timeout_ms })) {
        seen.add(ev.version);
      }
    } catch (err) {
      if (err instanceof HuntersError) throw new Failed(err, seen.size ? [["versions", span(seen)]] : []);
      throw err;
    }
    return [["versions", span(seen)]];
  }

  async getRecord(c: HuntersClient, step: Step): Promise<Fields> {
    const token = step.token === undefined ? undefined : this.token(step);
    const record = (await c.getRecord(this.matchId(step), token)) as { moves: unknown[]; seed?: number; players: number };
    return [
      ["moves", record.moves.length],
      ["seed", record.seed],
      ["players", record.players],
    ];
  }

  async deleteMatch(c: HuntersClient, step: Step): Promise<Fields> {
    if (step.lose_replies !== undefined) this.hook.losing.set("DeleteMatch", step.lose_replies);
    await c.deleteMatch(this.matchId(step), this.token(step));
    return [];
  }

  async listMatches(c: HuntersClient, step: Step): Promise<Fields> {
    const pageToken = step.page_token === "next" ? this.nextToken : (step.page_token ?? "");
    const page = await c.listMatches({ game: step.game ?? "", pageSize: step.page_size ?? 50, pageToken });
    this.nextToken = page.nextPageToken;
    return [
      ["matches", page.matches.map((m) => this.label(m.matchId))],
      ["next", page.nextPageToken !== ""],
    ];
  }

  async allMatches(c: HuntersClient, step: Step): Promise<Fields> {
    const found: string[] = [];
    for await (const m of c.allMatches({ game: step.game ?? "", pageSize: step.page_size ?? 50 })) {
      found.push(this.label(m.matchId));
    }
    return [
      ["matches", found],
      ["pages", this.hook.requests("ListMatches").length],
    ];
  }

  async seatOpen(c: HuntersClient, step: Step): Promise<Fields> {
    const stream = c.seat(this.matchId(step), this.token(step), { resumeVersion: step.resume_version });
    try {
      for await (const m of stream) return [["first", m.kind]];
    } finally {
      stream.close();
    }
    return [["first", "-"]];
  }

  async perft(c: HuntersClient, step: Step): Promise<Fields> {
    const lines = [];
    const request = {
      config: { game: step.game, players: step.players, seed: step.seed },
      depth: step.depth,
      maxNodes: step.max_nodes ?? 0,
    };
    for await (const r of c.perft(request, { timeoutMs: step.timeout_ms })) lines.push(r);
    return [
      ["total", lines[lines.length - 1]!.count],
      ["lines", lines.length],
    ];
  }

  async evaluate(c: HuntersClient, step: Step): Promise<Fields> {
    const r = await c.evaluate({ game: step.game, players: step.players, seed: step.seed }, [], { includeLegalMoves: true });
    return [
      ["legal", r.legal],
      ["player", r.state.player],
      ["legal_moves", r.legalMoves.length],
    ];
  }

  async simulate(c: HuntersClient, step: Step): Promise<Fields> {
    const progress = [];
    for await (const p of c.simulate({ game: step.game, players: step.players, games: step.games, seed: step.seed })) {
      progress.push(p);
    }
    const p = progress[progress.length - 1]!;
    return [
      ["games", p.gamesDone],
      ["moves", p.moves],
      ["wins", p.wins],
      ["done", p.done],
    ];
  }

  async conformanceVectors(c: HuntersClient): Promise<Fields> {
    return [["nonempty", (await c.conformanceVectors()).length > 0]];
  }
}

const [address, path = SCENARIO] = process.argv.slice(2);
if (!address) throw new Error("usage: node dist/scenario/run.js ADDRESS [SCENARIO]");
const steps = (JSON.parse(readFileSync(path, "utf8")) as { steps: Step[] }).steps;
const hook = new Hook();
const client = new HuntersClient(address, { interceptors: [hook.interceptor] });
const gone = new HuntersClient(`127.0.0.1:${await freePort()}`, { interceptors: [hook.interceptor] });
await new Run(client, gone, hook).run(steps);

