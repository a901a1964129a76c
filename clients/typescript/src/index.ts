/**
 * The hunters TypeScript client: `HuntersClient`, `HuntersError` and the move builders. The generated
 * messages and enums (GameStatus, PieceKind, JaegerTies, ...) are under `./gen/hunters/v1/*_pb.js`;
 * the enums most bots need are re-exported here.
 */
export { HuntersClient, RPC_METHODS, SeatStream, type ClientOptions, type PlayOptions } from "./client.js";
export { Code, HuntersError } from "./errors.js";
export {
  MatchStatus,
  carcassonneMove,
  isOver,
  jaegerMove,
  type CarcassonneInfo,
  type CarcassonneOptions,
  type CarcassonnePlacement,
  type ConformanceVectorFile,
  type CreatedMatch,
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
  type PerftRequest,
  type PerftResponse,
  type Play,
  type PlayResult,
  type SeatMessage,
  type SimulationProgress,
  type SimulationRequest,
  type Turn,
} from "./wire.js";
export { GameStatus, JaegerTileKind, Season } from "./gen/hunters/v1/state_pb.js";
export { PieceKind } from "./gen/hunters/v1/moves_pb.js";
export { JaegerGridOffset, JaegerSpaceKind, JaegerTies, JaegerWinterStart } from "./gen/hunters/v1/options_pb.js";
export { CarcassonneScoreKind, JaegerEventKind } from "./gen/hunters/v1/events_pb.js";
export {
  CarcassonneAnimal,
  CarcassonneForestKind,
  CarcassonnePower,
  CarcassonneTileKind,
  CarcassonneZoneType,
} from "./gen/hunters/v1/games_pb.js";
