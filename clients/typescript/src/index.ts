/**
 * The hunters TypeScript client: `HuntersClient`, `HuntersError` and the move builders. The generated
 * messages and enums (GameStatus, PieceKind, JaegerTies, ...) are under `./gen/hunters/v1/*_pb.js`;
 * the enums most bots need are re-exported here.
 */
export { HuntersClient, RPC_METHODS, SeatStream, type ClientOptions, type PlayOptions, type SeatOptions } from "./client.js";
export { ATTEMPTS, RETRIED_CODES, newRequestId, pauseMs } from "./policy.js";
export { Code, HuntersError } from "./errors.js";
export {
  MatchStatus,
  carcassonneMove,
  isOver,
  jaegerMove,
  type Analysis,
  type AnalysisRequest,
  type CarcassonneInfo,
  type CarcassonneOptions,
  type CarcassonnePlacement,
  type ConformanceVectorFile,
  type CreatedMatch,
  type Estimate,
  type Evaluation,
  type Event,
  type GameConfig,
  type GameInfo,
  type GameSummary,
  type JaegerInfo,
  type JaegerOptions,
  type LegalMove,
  type LegalMoves,
  type MatchEvent,
  type MatchInfo,
  type MatchPage,
  type MatchState,
  type Move,
  type MoveEstimate,
  type PerftRequest,
  type PerftResponse,
  type Play,
  type PlayResult,
  type Review,
  type ReviewReport,
  type SeatMessage,
  type SimulationProgress,
  type SimulationRequest,
  type Turn,
} from "./wire.js";
export { GameStatus } from "./gen/hunters/v1/state_pb.js";
export { MoveBand, ReviewDecisionKind, ReviewStatus } from "./gen/hunters/v1/review_pb.js";
// each game's enums, from its own file of gen/hunters/v1 (one export per game)
export {
  CarcassonneAnimal,
  CarcassonneForestKind,
  CarcassonnePower,
  CarcassonneScoreKind,
  CarcassonneTileKind,
  CarcassonneZoneType,
  PieceKind,
} from "./gen/hunters/v1/carcassonne_pb.js";
export {
  JaegerEventKind,
  JaegerGridOffset,
  JaegerSpaceKind,
  JaegerTies,
  JaegerTileKind,
  JaegerWinterStart,
  Season,
} from "./gen/hunters/v1/jaeger_pb.js";
