/**
 * The rules every client of the project follows alike (docs/clients.md#one-client-behaviour):
 * which writes are sent again when their reply is lost, how often and after what pause, and the
 * request ids that make that safe.
 */
import { randomUUID } from "node:crypto";

import { Code } from "@connectrpc/connect";

import type { HuntersError } from "./errors.js";

/** Tries in all of a retried call whose reply was lost. */
export const ATTEMPTS = 3;

/** Codes after which a write may or may not have been applied: sent again, identical. */
export const RETRIED_CODES: ReadonlySet<Code> = new Set([Code.Unavailable, Code.DeadlineExceeded]);

/** Milliseconds to wait after the failed try number `attempt` (1, 2, ...): 50, then 100, doubling. */
export function pauseMs(attempt: number): number {
  return 25 * 2 ** attempt;
}

/** A request id for a write that has none: 128 random bits as 32 lowercase hex digits. */
export function newRequestId(): string {
  return randomUUID().replaceAll("-", "");
}

/**
 * What follows the failed try number `attempt` of a write: send it again, take it as done (a
 * DeleteMatch retry answered MATCH_NOT_FOUND: the lost try deleted it), or throw.
 */
export function after(
  error: HuntersError,
  attempt: number,
  attempts: number,
  deletes = false,
): "retry" | "done" | "throw" {
  if (deletes && attempt > 1 && error.reason === "MATCH_NOT_FOUND") return "done";
  if (attempt < attempts && RETRIED_CODES.has(error.code)) return "retry";
  return "throw";
}
