/**
 * A typed client of the hunters service: matches played seat by seat, the stateless oracle and
 * in-server simulation. Calls speak gRPC over HTTP/2 (connect-node's gRPC transport).
 */
import { setTimeout as sleep } from "node:timers/promises";

import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

import { HuntersError } from "./errors.js";
import { GameService } from "./gen/hunters/v1/games_pb.js";
import { MatchService, type PlaySeatRequest, type PlaySeatResponse } from "./gen/hunters/v1/matches_pb.js";
import { OracleService } from "./gen/hunters/v1/oracle_pb.js";
import { ATTEMPTS, after, newRequestId, pauseMs } from "./policy.js";
import {
  requests,
  responses,
  type Analysis,
  type AnalysisRequest,
  type CreatedMatch,
  type Evaluation,
  type GameConfig,
  type GameInfo,
  type GameSummary,
  type LegalMoves,
  type MatchEvent,
  type MatchInfo,
  type MatchPage,
  type Move,
  type Play,
  type PlayResult,
  type ReviewReport,
  type ConformanceVectorFile,
  type PerftRequest,
  type PerftResponse,
  type SeatMessage,
  type SimulationProgress,
  type SimulationRequest,
  type Turn,
} from "./wire.js";

export interface ClientOptions {
  /**
   * The deadline of each unary call, and of each try of a retried one, in milliseconds (and
   * perft's unless it is given its own); default 30 000. Other streams have none unless given.
   */
  timeoutMs?: number;
  /** Extra connect interceptors (logging, fault injection in tests, ...). */
  interceptors?: Interceptor[];
  /** A transport of your own instead of plain-text HTTP/2 to `address`. */
  transport?: Transport;
}

export interface PlayOptions {
  /** Refuse (ABORTED / STALE_VERSION) unless the match is at this version. */
  expectedVersion?: number;
  /** Names this move for retries; the client makes one when unset, so retries are always safe. */
  requestId?: string;
  /** Tries in all when the reply is lost (UNAVAILABLE, DEADLINE_EXCEEDED); default 3 (`ATTEMPTS`). */
  attempts?: number;
  /**
   * Default false. When true, the reply carries what the move changed: its state has the fields
   * every game has (player, status, scores, winners, version) but not the game's view (`view` is
   * unset: no board). Cheaper for the server; all a bot needs that reads the board from
   * `legalMoves`, its turn or `getMatch`.
   */
  changesOnly?: boolean;
  signal?: AbortSignal;
}

function bearer(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function call<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw HuntersError.from(err);
  }
}

async function* stream<A, B>(source: AsyncIterable<A>, convert: (a: A) => B): AsyncGenerator<B, void, undefined> {
  try {
    for await (const item of source) yield convert(item);
  } catch (err) {
    throw HuntersError.from(err);
  }
}

/**
 * The facade method of every RPC of the contract, by full name: each RPC of `hunters.v1` has one
 * (test/facade.test.ts checks this list against the generated service descriptors).
 */
export const RPC_METHODS = {
  "hunters.v1.MatchService.CreateMatch": "createMatch",
  "hunters.v1.MatchService.GetMatch": "getMatch",
  "hunters.v1.MatchService.ListMatches": "listMatches",
  "hunters.v1.MatchService.DeleteMatch": "deleteMatch",
  "hunters.v1.MatchService.ListLegalMoves": "legalMoves",
  "hunters.v1.MatchService.PlayMove": "play",
  "hunters.v1.MatchService.WatchMatch": "watch",
  "hunters.v1.MatchService.GetRecord": "getRecord",
  "hunters.v1.MatchService.PlaySeat": "seat",
  "hunters.v1.MatchService.RequestReview": "requestReview",
  "hunters.v1.MatchService.GetReview": "getReview",
  "hunters.v1.OracleService.Evaluate": "evaluate",
  "hunters.v1.OracleService.SimulateGames": "simulate",
  "hunters.v1.OracleService.Perft": "perft",
  "hunters.v1.OracleService.ListConformanceVectors": "conformanceVectors",
  "hunters.v1.OracleService.GetConformanceVectors": "conformanceVectorFile",
  "hunters.v1.OracleService.Analyze": "analyze",
  "hunters.v1.GameService.ListGames": "listGames",
  "hunters.v1.GameService.GetGameInfo": "gameInfo",
} as const satisfies Record<string, keyof HuntersClient>;

/** An async queue of requests: what a bidirectional call reads from. */
class Outbox<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((ok) => (this.wake = ok));
      this.wake = undefined;
    }
  }
}

/** Options of a seat stream. */
export interface SeatOptions {
  /** The last version seen, when reconnecting: the stream starts after it. */
  resumeVersion?: number;
  signal?: AbortSignal;
  /** A deadline for the whole stream, in milliseconds; none by default. */
  timeoutMs?: number;
  changesOnly?: boolean;
}

/**
 * One seat of a match on one PlaySeat stream. Iterate it (`for await`) for every version of the
 * match, the seat's turns and the answers to `play`; it ends after the match's last version. It
 * does not reconnect: after an error, open another with `resumeVersion: stream.lastVersion`.
 */
export class SeatStream implements AsyncIterable<SeatMessage> {
  private readonly outbox = new Outbox<PlaySeatRequest>();
  private readonly controller = new AbortController();
  private readonly source: AsyncIterable<PlaySeatResponse>;
  /** The last version the stream delivered (-1 before any, or the resume version). */
  lastVersion: number;

  constructor(matches: Client<typeof MatchService>, matchId: string, token: string, options: SeatOptions = {}) {
    this.outbox.push(requests.seatOpen(matchId, options.resumeVersion, options.changesOnly ?? false));
    this.lastVersion = options.resumeVersion ?? -1;
    options.signal?.addEventListener("abort", () => this.close(), { once: true });
    this.source = matches.playSeat(this.outbox, {
      headers: bearer(token),
      signal: this.controller.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /**
   * Answer a turn (its version) with a move or an action code; the answer arrives on the stream.
   * The move carries `requestId`, or one made up.
   */
  play(version: number, play: Play, requestId = ""): void {
    this.outbox.push(requests.seatMove(version, play, requestId || newRequestId()));
  }

  /** End the stream (the iteration ends). */
  close(): void {
    this.outbox.close();
    this.controller.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SeatMessage, void, undefined> {
    try {
      for await (const r of this.source) {
        if (r.event !== undefined) this.lastVersion = Number(r.event.version);
        yield* responses.seatMessages(r);
      }
    } catch (err) {
      if (this.controller.signal.aborted) return; // closed by us
      throw HuntersError.from(err);
    } finally {
      this.close();
    }
  }
}

export class HuntersClient {
  private readonly matches: Client<typeof MatchService>;
  private readonly oracle: Client<typeof OracleService>;
  private readonly games: Client<typeof GameService>;
  private readonly timeoutMs: number;

  /** `address`: "host:port" or a URL ("http://host:port"). */
  constructor(address: string, options: ClientOptions = {}) {
    const baseUrl = /^https?:\/\//.test(address) ? address : `http://${address}`;
    const transport =
      options.transport ?? createGrpcTransport({ baseUrl, interceptors: options.interceptors ?? [] });
    this.matches = createClient(MatchService, transport);
    this.oracle = createClient(OracleService, transport);
    this.games = createClient(GameService, transport);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * A write sent again, identical, while its reply is lost (`after`): `attempts` tries in all.
   * Resolves to undefined for a DeleteMatch whose lost try deleted the match.
   */
  private async write<T>(send: () => Promise<T>, attempts: number, signal?: AbortSignal, deletes = false): Promise<T | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        const error = HuntersError.from(err);
        const then = after(error, attempt, attempts, deletes);
        if (then === "done") return undefined;
        if (then === "throw" || signal?.aborted) throw error;
        await sleep(pauseMs(attempt));
      }
    }
  }

  /**
   * Create a match; the reply holds one token per seat and the admin token. `createToken`: the
   * operator's token, when the server was started with one (`hunters serve --create-token-file`).
   */
  async createMatch(config: GameConfig, options: { createToken?: string } = {}): Promise<CreatedMatch> {
    const request = requests.createMatch(config); // a TypeError for contradictory options, before any call
    return call(async () =>
      responses.created(
        await this.matches.createMatch(request, {
          headers: bearer(options.createToken),
          timeoutMs: this.timeoutMs,
        }),
      ),
    );
  }

  /** The match as anyone may see it (never the hidden draw order). */
  getMatch(matchId: string): Promise<MatchInfo> {
    return call(async () =>
      responses.gotMatch(await this.matches.getMatch(requests.getMatch(matchId), { timeoutMs: this.timeoutMs })),
    );
  }

  /** One page of the stored matches, oldest first (`pageSize` default 50, at most 500; `game`: only that game's). */
  listMatches(options: { game?: string; pageSize?: number; pageToken?: string } = {}): Promise<MatchPage> {
    return call(async () =>
      responses.matchPage(
        await this.matches.listMatches(requests.listMatches(options), { timeoutMs: this.timeoutMs }),
      ),
    );
  }

  /** Every stored match (of `game` if given), page after page. */
  async *allMatches(options: { game?: string; pageSize?: number } = {}): AsyncGenerator<MatchInfo, void, undefined> {
    let pageToken = "";
    do {
      const page = await this.listMatches({ ...options, pageToken });
      yield* page.matches;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** Delete a match for good (its admin token); watchers' streams end. Retried when the reply is lost. */
  async deleteMatch(matchId: string, adminToken: string): Promise<void> {
    const request = requests.deleteMatch(matchId);
    const options = { headers: bearer(adminToken), timeoutMs: this.timeoutMs };
    await this.write(() => this.matches.deleteMatch(request, options), ATTEMPTS, undefined, true);
  }

  /** The legal moves of the seat to move, each with its action code. */
  legalMoves(matchId: string): Promise<LegalMoves> {
    return call(async () =>
      responses.legalMoves(
        await this.matches.listLegalMoves(requests.legalMoves(matchId), { timeoutMs: this.timeoutMs }),
      ),
    );
  }

  /**
   * Play a move for the seat of `token`. Every call carries a request id, so a reply lost on the way
   * (UNAVAILABLE, DEADLINE_EXCEEDED) is retried safely: the server answers a repeated id with the
   * first result and applies the move once. Refusals (stale version, not your turn, illegal move)
   * are never retried.
   */
  async play(matchId: string, token: string, play: Play, options: PlayOptions = {}): Promise<PlayResult> {
    const request = requests.playMove(
      matchId,
      play,
      options.expectedVersion,
      options.requestId || newRequestId(),
      options.changesOnly ?? false,
    );
    const call = { headers: bearer(token), timeoutMs: this.timeoutMs, signal: options.signal };
    const reply = await this.write(() => this.matches.playMove(request, call), Math.max(1, options.attempts ?? ATTEMPTS), options.signal);
    if (reply === undefined) throw new Error("unreachable: a move is never taken as done without its reply");
    return responses.played(reply);
  }

  /**
   * Every version of a match from `fromVersion` on, then live ones; ends when the match is over
   * (after its last version), is deleted, or `signal` aborts (`timeoutMs`: a deadline, none by default).
   */
  watch(
    matchId: string,
    options: { fromVersion?: number; signal?: AbortSignal; timeoutMs?: number } = {},
  ): AsyncGenerator<MatchEvent> {
    const source = this.matches.watchMatch(requests.watch(matchId, options.fromVersion ?? 0), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return stream(source, responses.matchEvent);
  }

  /**
   * A seat stream (PlaySeat) for the seat of `token`: every version of the match from the creation
   * on (after `resumeVersion`, the last one seen, when reconnecting), the seat's turns and the
   * answers to its moves. `changesOnly` (default false here, the raw stream): the versions' states
   * without the game's view (player, status, scores, winners, version; `view` unset); turns are
   * whole either way. `playSeat` runs the whole bot loop on one, changes-only by default.
   */
  seat(matchId: string, token: string, options: SeatOptions = {}): SeatStream {
    return new SeatStream(this.matches, matchId, token, options);
  }

  /**
   * Play the seat of `token` until the match ends, on one stream: `choose(turn)` returns the move
   * (`{ move }` or `{ action }`). A refused move throws its HuntersError, unless `onRefused` takes it
   * (the turn is then offered again). Resolves to the last version seen.
   *
   * `changesOnly` (default true): each turn carries the whole state, but the versions passed to
   * `onEvent` (and the one this resolves to) carry what changed: their state has player, status,
   * scores, winners and version, not the game's view (`state.view` unset), which costs the server
   * less. `changesOnly: false` asks for the whole state, board included, in every version.
   */
  async playSeat(
    matchId: string,
    token: string,
    choose: (turn: Turn) => Play | Promise<Play>,
    options: {
      resumeVersion?: number;
      signal?: AbortSignal;
      onEvent?: (event: MatchEvent) => void;
      onRefused?: (error: HuntersError) => void;
      changesOnly?: boolean;
    } = {},
  ): Promise<MatchEvent | undefined> {
    const seat = this.seat(matchId, token, {
      resumeVersion: options.resumeVersion,
      signal: options.signal,
      changesOnly: options.changesOnly ?? true,
    });
    let last: MatchEvent | undefined;
    try {
      for await (const m of seat) {
        if (m.kind === "turn") seat.play(m.turn.version, await choose(m.turn));
        else if (m.kind === "event") {
          last = m.event;
          options.onEvent?.(m.event);
        } else if (m.kind === "refused") {
          if (options.onRefused === undefined) throw m.error;
          options.onRefused(m.error);
        }
      }
    } finally {
      seat.close();
    }
    return last;
  }

  /**
   * Wait until `seat` is to move or the game is over, from `fromVersion` on (the version you know):
   * the version at which that holds. For a match with server-side bots (`GameConfig.bots`), whose
   * moves follow yours a moment later. Ends early (undefined) if the match is deleted or abandoned.
   */
  async waitTurn(
    matchId: string,
    seat: number,
    options: { fromVersion?: number; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<MatchEvent | undefined> {
    const controller = new AbortController();
    const abort = () => controller.abort();
    options.signal?.addEventListener("abort", abort, { once: true });
    try {
      const events = this.watch(matchId, {
        fromVersion: options.fromVersion ?? 0,
        signal: controller.signal,
        timeoutMs: options.timeoutMs,
      });
      for await (const ev of events) {
        if (ev.matchOver || ev.state.player === seat) return ev;
      }
      return undefined;
    } finally {
      options.signal?.removeEventListener("abort", abort);
      controller.abort(); // ends the stream when we return early
    }
  }

  /** The game's record (JSON). Before the end it holds the draw order: the admin token is needed. */
  getRecord(matchId: string, adminToken?: string): Promise<unknown> {
    return call(async () => {
      const reply = await this.matches.getRecord(requests.getRecord(matchId), {
        headers: bearer(adminToken),
        timeoutMs: this.timeoutMs,
      });
      return JSON.parse(reply.recordJson) as unknown;
    });
  }

  /**
   * Start the review of a finished match, or find it (computed once by the server and stored with
   * the match): `running` with its progress, or `done` with the review.
   */
  requestReview(matchId: string): Promise<ReviewReport> {
    return call(async () =>
      responses.reviewReport(
        (await this.matches.requestReview(requests.requestReview(matchId), { timeoutMs: this.timeoutMs })).report,
      ),
    );
  }

  /** A match's review as it stands: `not_requested`, `running` (its progress), `done` or `failed`. */
  getReview(matchId: string): Promise<ReviewReport> {
    return call(async () =>
      responses.reviewReport(
        (await this.matches.getReview(requests.getReview(matchId), { timeoutMs: this.timeoutMs })).report,
      ),
    );
  }

  /**
   * Ask for a finished match's review and wait until it is done (or failed), polling `getReview`
   * every 250 ms at first, 2 s at most; past `timeoutMs` (none by default) it rejects with an Error.
   */
  async waitReview(matchId: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ReviewReport> {
    const end = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    let report = await this.requestReview(matchId);
    for (let polls = 1; report.status === "running" || report.status === "not_requested"; polls++) {
      const wait = Math.min(2000, 125 * 2 ** Math.min(polls, 4));
      if (end !== undefined && Date.now() + wait > end) {
        throw new Error(`the review of ${matchId} is not done after ${options.timeoutMs} ms`);
      }
      await sleep(wait, undefined, { signal: options.signal });
      report = await this.getReview(matchId);
    }
    return report;
  }

  /**
   * A position analysed by the server's strong search, from one seat's view (docs/review.md): a
   * stored match (before its end only a seat's own view, with that seat's `token`, in a match created
   * with hints) or a position sent (config and moves). Deterministic for its iterations.
   */
  analyze(request: AnalysisRequest, options: { token?: string } = {}): Promise<Analysis> {
    const r = requests.analyze(request); // a TypeError for contradictory options, before any call
    return call(async () =>
      responses.analysis(await this.oracle.analyze(r, { headers: bearer(options.token), timeoutMs: this.timeoutMs })),
    );
  }

  /** Apply `moves` to a new game of `config` (seed or explicit options needed) without storing it. */
  evaluate(config: GameConfig, moves: Move[], options: { includeLegalMoves?: boolean } = {}): Promise<Evaluation> {
    return call(async () =>
      responses.evaluation(
        await this.oracle.evaluate(requests.evaluate(config, moves, options.includeLegalMoves ?? false), {
          timeoutMs: this.timeoutMs,
        }),
      ),
    );
  }

  /** Random games played in the server's core; progress about every 5% of the games, the last `done`. */
  simulate(
    request: SimulationRequest,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): AsyncGenerator<SimulationProgress> {
    const source = this.oracle.simulateGames(requests.simulate(request), options);
    return stream(source, responses.progress);
  }

  /**
   * Leaves `depth` decisions below a position, counted in the server's core (docs/conformance.md):
   * with `divide`, one message per root child first; the last (`done`) is the total. `timeoutMs`:
   * its deadline (default: the client's); the server stops the count there.
   */
  perft(request: PerftRequest, options: { signal?: AbortSignal; timeoutMs?: number } = {}): AsyncGenerator<PerftResponse> {
    const call = { signal: options.signal, timeoutMs: options.timeoutMs ?? this.timeoutMs };
    return stream(this.oracle.perft(requests.perft(request), call), (r) => r);
  }

  /** The conformance vector files the server publishes (one game's, or every game's). */
  conformanceVectors(game = ""): Promise<ConformanceVectorFile[]> {
    return call(async () => (await this.oracle.listConformanceVectors(requests.listVectors(game), { timeoutMs: this.timeoutMs })).files);
  }

  /** One vector file's vectors: its JSON lines, parsed. */
  conformanceVectorFile(game: string, name: string, version = ""): Promise<unknown[]> {
    return call(async () => {
      const reply = await this.oracle.getConformanceVectors(requests.getVectors(game, name, version), {
        timeoutMs: this.timeoutMs,
      });
      return reply.content
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown);
    });
  }

  /** Every game the server plays: id, display name, player range, action-space size. */
  listGames(): Promise<GameSummary[]> {
    return call(async () =>
      responses.games(await this.games.listGames(requests.listGames(), { timeoutMs: this.timeoutMs })),
    );
  }

  /**
   * One game's static data: its action-code layout and components (every carcassonne_hg tile; the
   * jaeger_sammler board, camps and tile kinds). Fixed while a server runs: fetch it once.
   */
  gameInfo(game: string): Promise<GameInfo> {
    return call(async () =>
      responses.gameInfo(await this.games.getGameInfo(requests.gameInfo(game), { timeoutMs: this.timeoutMs })),
    );
  }
}
