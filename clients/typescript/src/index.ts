/** The hunters TypeScript client: `HuntersClient`, `HuntersError` and the move builders. */
export { HuntersClient, type ClientOptions, type PlayOptions } from "./client.js";
export { Code, HuntersError } from "./errors.js";
export {
  carcassonneMove,
  jaegerMove,
  type CarcassonnePlacement,
  type CreatedMatch,
  type Evaluation,
  type Event,
  type GameConfig,
  type LegalMove,
  type LegalMoves,
  type MatchEvent,
  type MatchInfo,
  type MatchState,
  type Move,
  type Play,
  type PlayResult,
  type SimulationProgress,
  type SimulationRequest,
} from "./wire.js";
