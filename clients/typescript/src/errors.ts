/**
 * One error class for every refusal of the service: the gRPC status code, the machine-readable
 * `reason` of the `google.rpc.ErrorInfo` detail (sent in the `grpc-status-details-bin` trailer) and
 * its metadata (e.g. `current_version` for STALE_VERSION, `player` for NOT_YOUR_TURN).
 */
import { Code, ConnectError } from "@connectrpc/connect";

import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

export { Code };

/** gRPC's canonical code names, by code number (Code's values are gRPC's). */
const CODE_NAMES = [
  "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
  "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
] as const;

function codeName(code: Code): string {
  return CODE_NAMES[code] ?? `CODE_${code}`;
}

/**
 * `message` is the one line every client of the project writes for an error, "CODE REASON: message",
 * e.g. `FAILED_PRECONDITION SEAT_PLAYED_BY_BOT: seat 1 is played by the server's bot`; `rawMessage`
 * is the server's message alone. `reason` is never empty: a status the server did not send (a
 * connection refused, a deadline) has its code's name as reason (`UNAVAILABLE UNAVAILABLE: ...`).
 */
export class HuntersError extends Error {
  override readonly name = "HuntersError";
  /** ErrorInfo.reason, e.g. "STALE_VERSION", "NOT_ADJACENT"; the code's name when the server sent none. */
  readonly reason: string;

  constructor(
    /** The gRPC status code (numerically gRPC's: NOT_FOUND = 5, ...). */
    readonly code: Code,
    reason: string,
    /** The status message, as the server wrote it. */
    readonly rawMessage: string,
    /** ErrorInfo.metadata: context of the refusal, values as strings. */
    readonly metadata: Readonly<Record<string, string>> = {},
    /** ErrorInfo.domain ("hunters.v1" for the service's own errors). */
    readonly domain = "",
    /** The response headers and trailers of the failed call. */
    readonly trailers: Headers = new Headers(),
    options?: { cause?: unknown },
  ) {
    super(`${codeName(code)} ${reason || codeName(code)}: ${rawMessage}`, options);
    this.reason = reason || codeName(code);
  }

  /** gRPC's name of the code, e.g. "FAILED_PRECONDITION". */
  get codeName(): string {
    return codeName(this.code);
  }

  /** The error of a failed call: ConnectError (and anything else) becomes a HuntersError. */
  static from(err: unknown): HuntersError {
    if (err instanceof HuntersError) return err;
    const ce = ConnectError.from(err);
    const [info] = ce.findDetails(ErrorInfoSchema);
    const reason = info?.reason ?? "";
    // servers before the contract's one error text put the reason in front of the message too
    const raw = reason && ce.rawMessage.startsWith(`${reason}: `) ? ce.rawMessage.slice(reason.length + 2) : ce.rawMessage;
    return new HuntersError(
      ce.code,
      reason,
      raw,
      info ? { ...info.metadata } : {},
      info?.domain ?? "",
      ce.metadata,
      { cause: err },
    );
  }
}
