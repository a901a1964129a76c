/**
 * The scenario's ops that play a seat to the end (clients/scenario/README.md): by unary calls, and
 * by a seat stream with a refused move, a repeated one and a reconnect.
 */
import { HuntersClient, HuntersError, isOver, type MatchEvent } from "../src/index.js";
import type { Run } from "./run.js";
import { index, span, stateFields, type Fields, type Step } from "./transcript.js";

export async function playByUnary(run: Run, c: HuntersClient, step: Step): Promise<Fields> {
  const matchId = run.matchId(step);
  const token = run.matches.get(step.match)!.seatTokens[step.seat]!;
  let version: number = step.from;
  let moves = 0;
  for (;;) {
    const ev = await c.waitTurn(matchId, step.seat, { fromVersion: version });
    if (ev === undefined || ev.matchOver) break;
    const legal = await c.legalMoves(matchId);
    const m = legal.moves[index(legal.version, legal.moves.length)]!;
    const byMove = legal.version % 2 === 0; // structured moves and action codes in turn
    const r = await c.play(matchId, token, byMove ? { move: m.move } : { action: m.action }, {
      expectedVersion: legal.version,
      changesOnly: true,
    });
    moves += 1;
    version = r.version;
    if (r.isOver) break;
  }
  const end = await c.getMatch(matchId);
  return [["moves", moves], ["version", end.version], ["over", isOver(end.state)], ...stateFields(end.state)];
}

export async function playBySeatStream(run: Run, c: HuntersClient, step: Step): Promise<Fields> {
  const matchId = run.matchId(step);
  const token = run.token(step);
  let [moves, played, retried, reconnects] = [0, 0, 0, 0];
  const refused: HuntersError[] = [];
  const seen = new Set<number>();
  let last: MatchEvent | undefined;
  let illegalSent = false;
  let resume: number | undefined;
  const retriesDue = step.resend_move !== undefined ? 1 : 0;
  for (;;) {
    let reopen = false;
    const stream = c.seat(matchId, token, { resumeVersion: resume });
    try {
      for await (const m of stream) {
        if (m.kind === "event") {
          seen.add(m.event.version);
          last = m.event;
        } else if (m.kind === "played") {
          if (m.retried) retried += 1;
          else played += 1;
          if (!reconnects && played >= step.reconnect_after_moves && retried >= retriesDue && played === moves) {
            reopen = true;
            break;
          }
        } else if (m.kind === "refused") {
          refused.push(m.error);
        } else {
          const turn = m.turn;
          if (!illegalSent && moves + 1 === step.illegal_at_move) {
            stream.play(turn.version, { action: step.illegal_action });
            illegalSent = true;
            continue;
          }
          const action = turn.moves[index(turn.version, turn.moves.length)]!.action;
          const requestId = `seat-${turn.version}`;
          stream.play(turn.version, { action }, requestId);
          moves += 1;
          if (moves === step.resend_move) stream.play(turn.version, { action }, requestId);
        }
      }
    } finally {
      stream.close();
    }
    if (!reopen) break;
    reconnects += 1;
    resume = stream.lastVersion;
  }
  run.more = refused.map((err) => ["refused", err]);
  if (last === undefined) throw new Error("the seat stream sent no version");
  return [
    ["moves", moves],
    ["played", played],
    ["retried", retried],
    ["refused", refused.length],
    ["reconnects", reconnects],
    ["versions", span(seen)],
    ["over", last.matchOver],
    ...stateFields(last.state),
  ];
}
