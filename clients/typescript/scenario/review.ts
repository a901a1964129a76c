/**
 * The scenario's ops of analyses and reviews (clients/scenario/README.md): a position analysed, a
 * hint, a finished match's review. Figures are written rounded half away from zero by integer
 * arithmetic (`fixed`), so that every client writes the same.
 */
import { MoveBand, type HuntersClient } from "../src/index.js";
import type { Fields, Step } from "./transcript.js";

/** What the ops need of the runner (run.ts's Run). */
export interface Runner {
  matchId(step: Step): string;
  token(step: Step): string;
}

/** `x` with `digits` decimals, half away from zero, never "-0": the same text in every client. */
export function fixed(x: number, digits: number): string {
  const scale = 10 ** digits;
  const n = Math.floor(Math.abs(x) * scale + 0.5);
  const sign = x < 0 && n !== 0 ? "-" : "";
  const whole = Math.floor(n / scale);
  const frac = String(n % scale).padStart(digits, "0");
  return digits ? `${sign}${whole}.${frac}` : `${sign}${whole}`;
}

export async function analyze(run: Runner, c: HuntersClient, step: Step): Promise<Fields> {
  const common = { seat: step.seat, topK: step.top_k ?? 0, iterations: step.iterations ?? 0 };
  const a =
    step.match !== undefined
      ? await c.analyze({ ...common, matchId: run.matchId(step), version: step.version }, { token: run.token(step) || undefined })
      : await c.analyze({ ...common, config: { game: step.game, players: step.players, seed: step.seed } });
  return [
    ["version", a.version],
    ["seat", a.seat],
    ["player", a.player],
    ["iterations", a.iterations],
    ["moves", a.moves.length],
    ["top", a.moves[0]?.action],
    ["margin", fixed(a.position.margin, 1)],
    ["win", fixed(a.position.win, 2)],
  ];
}

export async function requestReview(run: Runner, c: HuntersClient, step: Step): Promise<Fields> {
  const r = await c.requestReview(run.matchId(step));
  return [
    ["status", r.status],
    ["decisions", `${r.decisionsDone}/${r.decisionsTotal}`],
  ];
}

export async function getReview(run: Runner, c: HuntersClient, step: Step): Promise<Fields> {
  const r = await c.getReview(run.matchId(step));
  return [
    ["status", r.status],
    ["decisions", `${r.decisionsDone}/${r.decisionsTotal}`],
  ];
}

export async function review(run: Runner, c: HuntersClient, step: Step): Promise<Fields> {
  const r = await c.waitReview(run.matchId(step), { timeoutMs: step.timeout_ms ?? 120_000 });
  const fields: Fields = [
    ["status", r.status],
    ["decisions", r.decisionsDone],
  ];
  const worst = r.review?.worst[0];
  if (r.review === undefined || worst === undefined) {
    return [...fields, ...["worst", "seat", "band", "cost", "played", "best"].map((k): [string, unknown] => [k, undefined])];
  }
  const d = r.review.decisions[worst]!;
  return [
    ...fields,
    ["worst", d.index + 1],
    ["seat", d.seat],
    ["band", (MoveBand[d.band] ?? String(d.band)).toLowerCase()],
    ["cost", fixed(d.cost, 1)],
    ["played", Number(d.played?.action)],
    ["best", Number(d.best?.action)],
  ];
}
