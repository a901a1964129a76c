/**
 * Every dependency of the facade on the shape of the generated messages lives here: requests are
 * built and responses read only in this module, so a change of the contract is adapted in one place.
 *
 * int64 fields (versions, action codes, counts) become `number`: they stay far below 2^53.
 */
import { create, type JsonObject, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";

import { HuntersError } from "./errors.js";
import { PieceKind, type CarcassonneInfo, type CarcassonneOptionsSchema } from "./gen/hunters/v1/carcassonne_pb.js";
import type { Event } from "./gen/hunters/v1/events_pb.js";
import {
  GetGameInfoRequestSchema,
  ListGamesRequestSchema,
  type GameSummary,
  type GetGameInfoResponse,
  type ListGamesResponse,
} from "./gen/hunters/v1/games_pb.js";
import type { JaegerInfo, JaegerOptionsSchema } from "./gen/hunters/v1/jaeger_pb.js";
import {
  CreateMatchRequestSchema,
  DeleteMatchRequestSchema,
  GameConfigSchema,
  GetMatchRequestSchema,
  GetRecordRequestSchema,
  GetReviewRequestSchema,
  ListLegalMovesRequestSchema,
  ListMatchesRequestSchema,
  MatchStatus,
  PlayMoveRequestSchema,
  PlaySeatRequestSchema,
  RequestReviewRequestSchema,
  WatchMatchRequestSchema,
  type CreateMatchResponse,
  type GetMatchResponse,
  type GameConfig as GameConfigPb,
  type ListLegalMovesResponse,
  type ListMatchesResponse,
  type Match,
  type PlayMoveRequest,
  type PlayMoveResponse,
  type PlaySeatRequest,
  type PlaySeatResponse,
  type WatchMatchResponse,
} from "./gen/hunters/v1/matches_pb.js";
import { MoveSchema, type LegalMove as LegalMovePb, type Move } from "./gen/hunters/v1/moves_pb.js";
import {
  AnalyzeRequestSchema,
  EvaluateRequestSchema,
  GetConformanceVectorsRequestSchema,
  ListConformanceVectorsRequestSchema,
  PerftRequestSchema,
  SimulateGamesRequestSchema,
  type AnalyzeResponse,
  type ConformanceVectorFile,
  type EvaluateResponse,
  type PerftResponse,
  type SimulateGamesResponse,
} from "./gen/hunters/v1/oracle_pb.js";
import {
  ReviewStatus,
  type Estimate as EstimatePb,
  type Review,
  type ReviewReport as ReviewReportPb,
} from "./gen/hunters/v1/review_pb.js";
import { GameStatus, type MatchState } from "./gen/hunters/v1/state_pb.js";

export type { CarcassonneInfo, ConformanceVectorFile, Event, GameSummary, JaegerInfo, Move, MatchState, PerftResponse, Review };

/** A Perft count: the position (config and the moves to it), the depth and the mode. */
export interface PerftRequest {
  config: GameConfig;
  moves?: Move[];
  depth: number;
  chance?: boolean;
  divide?: boolean;
  maxNodes?: number;
}
export { MatchStatus };

/** carcassonne_hg options as plain objects, e.g. `{normalDeck: {tiles: [3, 17, 5]}}` (CarcassonneOptions). */
export type CarcassonneOptions = MessageInitShape<typeof CarcassonneOptionsSchema>;
/** jaeger_sammler options as plain objects, e.g. `{stallRounds: 0, ties: JaegerTies.NO_WINNER}` (JaegerOptions). */
export type JaegerOptions = MessageInitShape<typeof JaegerOptionsSchema>;

/**
 * How a game starts. At most one of the game's typed options: `carcassonne` or `jaeger` (the server
 * refuses options of another game, an unknown field cannot be written, a bad value is INVALID_CONFIG);
 * `json` only for a game without typed options.
 */
export interface GameConfig {
  game: string;
  players: number;
  /** Unset: the server draws one (shown only once the match is over). */
  seed?: bigint | number;
  carcassonne?: CarcassonneOptions;
  jaeger?: JaegerOptions;
  json?: JsonObject;
  /**
   * Seats the server plays itself with its built-in bots, seat -> bot spec, e.g. `{1: "greedy"}` or
   * `{1: "mcts:iterations=1000"}` (CreateMatch only). Their moves arrive like anyone's (watch,
   * getMatch); play() with a bot seat's token is FAILED_PRECONDITION / SEAT_PLAYED_BY_BOT.
   */
  bots?: Record<number, string>;
  /**
   * Allow hints (CreateMatch only): each seat's token may ask `analyze` for its own view of the match
   * while it is played.
   */
  hints?: boolean;
}

/** Whether a state is final (`status` GAME_STATUS_OVER). */
export function isOver(state: MatchState): boolean {
  return state.status === GameStatus.OVER;
}

export interface MatchInfo {
  matchId: string;
  game: string;
  players: number;
  /** Moves applied so far; version n follows move n. */
  version: number;
  state: MatchState;
  /** Active, over, or abandoned (idle too long: readable, closed for moves). */
  status: MatchStatus;
  /** When the match was created. */
  createdAt?: Date;
  /** The seats the server's bots play, seat -> bot spec. */
  bots: Record<number, string>;
  /** The seed: shown only once the match is over. */
  seed?: bigint;
  /** Whether hints are allowed (GameConfig.hints). */
  hints: boolean;
}

/** One page of listMatches: oldest first; `nextPageToken` "" on the last page. */
export interface MatchPage {
  matches: MatchInfo[];
  nextPageToken: string;
}

export interface CreatedMatch extends MatchInfo {
  /** One secret per seat (index = seat): the only way to play that seat. */
  seatTokens: string[];
  /** Needed by deleteMatch and by getRecord before the end. */
  adminToken: string;
}

export interface LegalMove {
  move: Move;
  /** The dense action code of the move (the game's fixed action space). */
  action: number;
}

export interface LegalMoves {
  version: number;
  /** The seat to move. */
  player: number;
  moves: LegalMove[];
}

/** A move to play: structured, or as its dense action code. */
export type Play = { move: Move } | { action: number };

export interface PlayResult {
  version: number;
  events: Event[];
  state: MatchState;
  /** The move ended the game (`state.status` GAME_STATUS_OVER). */
  isOver: boolean;
  /** The winning seats once the game is over (several on a tie); empty before. */
  winners: number[];
}

/** One version of a watched match. Version 0 is the creation (no seat, no move). */
export interface MatchEvent {
  matchId: string;
  version: number;
  /** Who moved; undefined at the creation. */
  seat?: number;
  move?: Move;
  events: Event[];
  state: MatchState;
  /** The last version: the game is over and the stream ends after it. */
  matchOver: boolean;
}

/** The seat is to move (a seat stream's YourTurn): answer with `SeatStream.play(turn.version, ...)`. */
export interface Turn {
  version: number;
  seat: number;
  /** The state as getMatch shows it at this version. */
  state: MatchState;
  /** Every legal move with its action code. */
  moves: LegalMove[];
}

/**
 * A message of a seat stream: a version of the match (as watch gives it), the seat's turn, or the
 * answer to one of its moves (played: durable; refused: nothing changed, the turn is offered again).
 */
export type SeatMessage =
  | { kind: "event"; event: MatchEvent }
  | { kind: "turn"; turn: Turn }
  | { kind: "played"; version: number; requestId: string; retried: boolean }
  | {
      kind: "refused";
      version: number;
      requestId: string;
      code: number;
      reason: string;
      message: string;
      metadata: Record<string, string>;
      /** The same refusal as the error `play` would have thrown. */
      error: HuntersError;
    };

export interface Evaluation {
  /** Every move applied. */
  legal: boolean;
  /** The first refused move: its index, the engine's reason and a message. */
  illegal?: { index: number; reason: string; message: string };
  /** The state after the moves applied (before the refused one). */
  state: MatchState;
  events: Event[];
  legalMoves: LegalMove[];
}

/**
 * What `analyze` analyses: a stored match (`matchId`, at `version`, default the latest) or a
 * position sent (`config` and `moves`), from `seat`'s view (default: the token's seat before the end,
 * else the seat to move); `topK` moves (0: 5), `iterations` (0: the strong bot's default).
 */
export interface AnalysisRequest {
  matchId?: string;
  version?: number;
  config?: GameConfig;
  moves?: Move[];
  seat?: number;
  topK?: number;
  iterations?: number;
}

/** What the search expects for the analysed seat (docs/review.md); `stderr` undefined under two visits. */
export interface Estimate {
  visits: number;
  margin: number;
  stderr?: number;
  win: number;
  scores: number[];
  margins: number[];
}

/** An estimate after one move of the seat to move. */
export interface MoveEstimate extends Estimate {
  move: Move;
  action: number;
}

/** A position analysed for `seat`; `moves` (when it is to move) ranked, the first the strong bot's move. */
export interface Analysis {
  game: string;
  version: number;
  seat: number;
  /** The seat to move; -1 once the game is over. */
  player: number;
  analyst: string;
  iterations: number;
  position: Estimate;
  moves: MoveEstimate[];
}

/** A match's review as it stands; `review` (the contract's Review message) once done. */
export interface ReviewReport {
  matchId: string;
  status: "not_requested" | "running" | "done" | "failed";
  decisionsDone: number;
  decisionsTotal: number;
  review?: Review;
  /** Why it failed. */
  message: string;
}

export interface SimulationRequest {
  game: string;
  players: number;
  games: number;
  seed: bigint | number;
}

/** One game's details: its summary and typed data (`details.case` "carcassonne" or "jaeger"). */
export interface GameInfo {
  summary: GameSummary;
  details: GetGameInfoResponse["details"];
}

export interface SimulationProgress {
  gamesDone: number;
  moves: number;
  meanScores: number[];
  wins: number[];
  gamesPerSecond: number;
  done: boolean;
}

// -- moves ------------------------------------------------------------------------------------

export interface CarcassonnePlacement {
  x: number;
  y: number;
  /** 0-3 clockwise quarter turns. */
  rotation: number;
  /** A piece on a zone of the placed tile (global zone id: tile * 10 + local). */
  occupant?: { kind: "meeple" | "hut"; zone: number };
  /** Shaman tile only: the zone of an own meeple to take back. */
  retake?: number;
}

/** A carcassonne_hg move. */
export function carcassonneMove(p: CarcassonnePlacement): Move {
  const occupant =
    p.occupant === undefined
      ? undefined
      : {
          kind: p.occupant.kind === "meeple" ? PieceKind.MEEPLE : PieceKind.HUT,
          zone: p.occupant.zone,
        };
  return create(MoveSchema, {
    game: { case: "carcassonne", value: { x: p.x, y: p.y, rotation: p.rotation, occupant, retake: p.retake } },
  });
}

/** A jaeger_sammler move: steps from `src` to `dst` (undefined: off the board). */
export function jaegerMove(steps: { src: number; dst?: number }[]): Move {
  return create(MoveSchema, { game: { case: "jaeger", value: { steps } } });
}


// -- requests ---------------------------------------------------------------------------------

function gameConfig(c: GameConfig) {
  const given = [c.carcassonne, c.jaeger, c.json].filter((o) => o !== undefined).length;
  if (given > 1) throw new TypeError("GameConfig: give at most one of carcassonne, jaeger and json options");
  const options =
    c.carcassonne !== undefined
      ? { case: "carcassonne" as const, value: c.carcassonne }
      : c.jaeger !== undefined
        ? { case: "jaeger" as const, value: c.jaeger }
        : c.json !== undefined
          ? { case: "json" as const, value: JSON.stringify(c.json) }
          : undefined;
  const bots = Object.entries(c.bots ?? {})
    .map(([seat, bot]) => ({ seat: Number(seat), bot }))
    .sort((a, b) => a.seat - b.seat);
  return create(GameConfigSchema, {
    game: c.game,
    players: c.players,
    seed: c.seed === undefined ? undefined : BigInt(c.seed),
    options,
    bots,
    hints: c.hints ?? false,
  });
}

export const requests = {
  createMatch: (c: GameConfig) => create(CreateMatchRequestSchema, { config: gameConfig(c) }),
  getMatch: (matchId: string) => create(GetMatchRequestSchema, { matchId }),
  getRecord: (matchId: string) => create(GetRecordRequestSchema, { matchId }),
  listMatches: (o: { game?: string; pageSize?: number; pageToken?: string }) =>
    create(ListMatchesRequestSchema, { game: o.game ?? "", pageSize: o.pageSize ?? 0, pageToken: o.pageToken ?? "" }),
  deleteMatch: (matchId: string) => create(DeleteMatchRequestSchema, { matchId }),
  legalMoves: (matchId: string) => create(ListLegalMovesRequestSchema, { matchId }),
  playMove(
    matchId: string,
    play: Play,
    expectedVersion: number | undefined,
    requestId: string,
    changesOnly = false,
  ): PlayMoveRequest {
    return create(PlayMoveRequestSchema, {
      matchId,
      expectedVersion: expectedVersion === undefined ? undefined : BigInt(expectedVersion),
      play: "move" in play ? { case: "move", value: play.move } : { case: "action", value: BigInt(play.action) },
      requestId,
      changesOnly,
    });
  },
  seatOpen: (matchId: string, resumeVersion: number | undefined, changesOnly = false): PlaySeatRequest =>
    create(PlaySeatRequestSchema, {
      kind: {
        case: "open",
        value: {
          matchId,
          resumeVersion: resumeVersion === undefined ? undefined : BigInt(resumeVersion),
          changesOnly,
        },
      },
    }),
  seatMove(version: number, play: Play, requestId: string): PlaySeatRequest {
    return create(PlaySeatRequestSchema, {
      kind: {
        case: "play",
        value: {
          version: BigInt(version),
          play: "move" in play ? { case: "move", value: play.move } : { case: "action", value: BigInt(play.action) },
          requestId,
        },
      },
    });
  },
  watch: (matchId: string, fromVersion: number) =>
    create(WatchMatchRequestSchema, { matchId, fromVersion: BigInt(fromVersion) }),
  evaluate: (c: GameConfig, moves: Move[], includeLegalMoves: boolean) =>
    create(EvaluateRequestSchema, { config: gameConfig(c), moves, includeLegalMoves }),
  simulate: (r: SimulationRequest) =>
    create(SimulateGamesRequestSchema, {
      game: r.game,
      players: r.players,
      games: BigInt(r.games),
      seed: BigInt(r.seed),
    }),
  perft: (r: PerftRequest) =>
    create(PerftRequestSchema, {
      config: gameConfig(r.config),
      moves: r.moves ?? [],
      depth: r.depth,
      chance: r.chance ?? false,
      divide: r.divide ?? false,
      maxNodes: BigInt(r.maxNodes ?? 0),
    }),
  listVectors: (game: string) => create(ListConformanceVectorsRequestSchema, { game }),
  getVectors: (game: string, name: string, version: string) =>
    create(GetConformanceVectorsRequestSchema, { game, name, version }),
  listGames: () => create(ListGamesRequestSchema, {}),
  gameInfo: (game: string) => create(GetGameInfoRequestSchema, { game }),
  analyze: (r: AnalysisRequest) =>
    create(AnalyzeRequestSchema, {
      matchId: r.matchId ?? "",
      version: r.version === undefined ? undefined : BigInt(r.version),
      config: r.config === undefined ? undefined : gameConfig(r.config),
      moves: r.moves ?? [],
      seat: r.seat,
      topK: r.topK ?? 0,
      iterations: r.iterations ?? 0,
    }),
  requestReview: (matchId: string) => create(RequestReviewRequestSchema, { matchId }),
  getReview: (matchId: string) => create(GetReviewRequestSchema, { matchId }),
};

// -- responses --------------------------------------------------------------------------------

function state(s: MatchState | undefined): MatchState {
  if (s === undefined) throw new Error("the server sent no state");
  return s;
}

function legalMove(m: LegalMovePb): LegalMove {
  if (m.move === undefined) throw new Error("the server sent a legal move without its move");
  return { move: m.move, action: Number(m.action) };
}

function missing(what: string): never {
  throw new Error(`the server sent no ${what}`);
}

function estimate(e: EstimatePb | undefined): Estimate {
  if (e === undefined) return missing("estimate");
  return {
    visits: Number(e.visits),
    margin: e.margin,
    stderr: e.stderr,
    win: e.win,
    scores: [...e.scores],
    margins: [...e.margins],
  };
}

const REVIEW_STATUS: Partial<Record<ReviewStatus, ReviewReport["status"]>> = {
  [ReviewStatus.NOT_REQUESTED]: "not_requested",
  [ReviewStatus.RUNNING]: "running",
  [ReviewStatus.DONE]: "done",
  [ReviewStatus.FAILED]: "failed",
};

function botsOf(c: GameConfigPb | undefined): Record<number, string> {
  return Object.fromEntries((c?.bots ?? []).map((b) => [b.seat, b.bot]));
}

export const responses = {
  match(m: Match): MatchInfo {
    return {
      matchId: m.matchId,
      game: m.config?.game ?? "",
      players: m.config?.players ?? 0,
      version: Number(m.version),
      state: state(m.state),
      status: m.status,
      createdAt: m.createdAt && timestampDate(m.createdAt),
      bots: botsOf(m.config),
      seed: m.config?.seed,
      hints: m.config?.hints ?? false,
    };
  },
  matchPage: (r: ListMatchesResponse): MatchPage => ({
    matches: r.matches.map((m) => responses.match(m)),
    nextPageToken: r.nextPageToken,
  }),
  gotMatch(r: GetMatchResponse): MatchInfo {
    if (r.match === undefined) throw new Error("the server sent no match");
    return responses.match(r.match);
  },
  created(r: CreateMatchResponse): CreatedMatch {
    if (r.match === undefined) throw new Error("the server sent no match");
    return { ...responses.match(r.match), seatTokens: [...r.seatTokens], adminToken: r.adminToken };
  },
  legalMoves: (r: ListLegalMovesResponse): LegalMoves => ({
    version: Number(r.version),
    player: r.player,
    moves: r.moves.map(legalMove),
  }),
  played(r: PlayMoveResponse): PlayResult {
    const s = state(r.state);
    return { version: Number(r.version), events: r.events, state: s, isOver: isOver(s), winners: [...s.winners] };
  },
  matchEvent(e: WatchMatchResponse): MatchEvent {
    const s = state(e.state);
    return {
      matchId: e.matchId,
      version: Number(e.version),
      seat: e.seat,
      move: e.move,
      events: e.events,
      state: s,
      matchOver: isOver(s),
    };
  },
  /** One message of a seat stream, in reading order: the event, the answer, the turn. */
  seatMessages(r: PlaySeatResponse): SeatMessage[] {
    const out: SeatMessage[] = [];
    if (r.event !== undefined) out.push({ kind: "event", event: responses.matchEvent(r.event) });
    if (r.played !== undefined) {
      out.push({ kind: "played", version: Number(r.played.version), requestId: r.played.requestId, retried: r.played.retried });
    }
    if (r.refused !== undefined) {
      const f = r.refused;
      out.push({
        kind: "refused",
        version: Number(f.version),
        requestId: f.requestId,
        code: f.code,
        reason: f.reason,
        message: f.message,
        metadata: { ...f.metadata },
        error: new HuntersError(f.code, f.reason, f.message, { ...f.metadata }, "hunters.v1"),
      });
    }
    if (r.yourTurn !== undefined) {
      const t = r.yourTurn;
      out.push({
        kind: "turn",
        turn: { version: Number(t.version), seat: t.seat, state: state(t.state), moves: t.moves.map(legalMove) },
      });
    }
    return out;
  },
  evaluation: (r: EvaluateResponse): Evaluation => ({
    legal: r.legal,
    illegal: r.legal || r.illegal === undefined ? undefined : { ...r.illegal },
    state: state(r.state),
    events: r.events,
    legalMoves: r.legalMoves.map(legalMove),
  }),
  progress: (p: SimulateGamesResponse): SimulationProgress => ({
    gamesDone: Number(p.gamesDone),
    moves: Number(p.moves),
    meanScores: [...p.meanScores],
    wins: p.wins.map(Number),
    gamesPerSecond: p.gamesPerSecond,
    done: p.done,
  }),
  analysis(r: AnalyzeResponse): Analysis {
    return {
      game: r.game,
      version: Number(r.version),
      seat: r.seat,
      player: r.player,
      analyst: r.analyst,
      iterations: Number(r.iterations),
      position: estimate(r.position),
      moves: r.moves.map((m) => ({ ...estimate(m.estimate), ...legalMove(m.move ?? missing("move")) })),
    };
  },
  reviewReport(r: ReviewReportPb | undefined): ReviewReport {
    if (r === undefined) throw new Error("the server sent no review report");
    return {
      matchId: r.matchId,
      status: REVIEW_STATUS[r.status] ?? "failed",
      decisionsDone: r.decisionsDone,
      decisionsTotal: r.decisionsTotal,
      review: r.review,
      message: r.message,
    };
  },
  games: (r: ListGamesResponse): GameSummary[] => r.games,
  gameInfo(r: GetGameInfoResponse): GameInfo {
    if (r.summary === undefined) throw new Error("the server sent no game summary");
    return { summary: r.summary, details: r.details };
  },
};
