/**
 * What the scenario's runner (run.ts) shares with no one but writes as every client's runner does
 * (clients/scenario/README.md): the interceptor that counts tries and loses replies, and the
 * transcript's values, lines and errors.
 */
import { Code as ConnectCode, ConnectError, type Interceptor } from "@connectrpc/connect";

import { HuntersError, MatchStatus, type MatchState } from "../src/index.js";

/** One step of the scenario, as the JSON has it. */
export type Step = Record<string, any>;
export type Fields = [string, unknown][];

/** The RPC whose tries a step counts: its op's own (not the lookups a client makes on the way). */
export const RPC_OF: Record<string, string> = {
  play: "PlayMove",
  delete_match: "DeleteMatch",
  get_match: "GetMatch",
  create_match: "CreateMatch",
  list_matches: "ListMatches",
  all_matches: "ListMatches",
};
export const COUNTED = new Set(["play", "delete_match"]); // ops that print their tries (and every op on the gone server)

const LOST = "the reply was lost (the scenario's hook)";

/** What the scenario sees of unary calls, and the replies it loses. */
export class Hook {
  calls: [string, unknown][] = [];
  losing = new Map<string, number>();

  reset(): void {
    this.calls = [];
    this.losing.clear();
  }

  requests(method: string): unknown[] {
    return this.calls.filter(([m]) => m === method).map(([, r]) => r);
  }

  readonly interceptor: Interceptor = (next) => async (req) => {
    if (req.stream) return next(req);
    const name = req.method.name;
    this.calls.push([name, req.message]);
    const lose = (this.losing.get(name) ?? 0) > 0;
    if (lose) this.losing.set(name, (this.losing.get(name) ?? 0) - 1);
    const res = await next(req); // the server has answered
    if (lose) throw new ConnectError(LOST, ConnectCode.Unavailable);
    return res;
  };
}

export function value(v: unknown): string {
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) return v.length ? v.map(String).join(",") : "-";
  if (v === undefined || v === null) return "-";
  return String(v);
}

export function span(versions: Set<number>): string {
  const max = Math.max(...versions);
  if (versions.size && versions.size === max + 1 && [...versions].every((v) => v >= 0 && v <= max)) return `0..${max}`;
  return value([...versions].sort((a, b) => a - b));
}

/** The error's one line; a status the server did not send is written without the library's message. */
export function errorText(err: HuntersError): string {
  const text = err.reason === err.codeName ? `${err.codeName} ${err.reason}` : err.message;
  const meta = Object.keys(err.metadata)
    .sort()
    .map((k) => `${k}=${err.metadata[k]}`)
    .join(",");
  return text + (meta ? ` | ${meta}` : "");
}

export class Failed extends Error {
  constructor(
    readonly err: HuntersError,
    readonly fields: Fields,
  ) {
    super(err.message);
  }
}

export const status = (s: MatchStatus): string => MatchStatus[s] ?? String(s);
export const stateFields = (s: MatchState): Fields => [
  ["scores", [...s.scores]],
  ["winners", [...s.winners]],
];
export const botsOf = (bots: Record<number, string>): string[] =>
  Object.keys(bots)
    .map(Number)
    .sort((a, b) => a - b)
    .map((seat) => `${seat}:${bots[seat]}`);
export const index = (version: number, n: number, offset = 0): number => (version * 7 + 3 + offset) % n;
