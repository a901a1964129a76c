package hunters

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Error is every refusal of the service: the gRPC status code, the machine-readable Reason of the
// google.rpc.ErrorInfo detail (sent in the grpc-status-details-bin trailer) and its Metadata
// (e.g. "current_version" for STALE_VERSION, "player" for NOT_YOUR_TURN). Use errors.As.
type Error struct {
	Code     codes.Code
	Reason   string // e.g. "STALE_VERSION", "NOT_ADJACENT"; the code's name when the server sent none
	Domain   string // "hunters.v1" for the service's own errors
	Message  string // the status message, as the server wrote it
	Metadata map[string]string
	err      error
}

// Error is the one line every client of the project writes for an error, "CODE REASON: message",
// e.g. "FAILED_PRECONDITION SEAT_PLAYED_BY_BOT: seat 1 is played by the server's bot"; a status
// the server did not send (a connection refused, a deadline) has its code's name as Reason
// ("UNAVAILABLE UNAVAILABLE: ...").
func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %s", CodeName(e.Code), e.Reason, e.Message)
}

// CodeName is gRPC's canonical name of a code, e.g. "FAILED_PRECONDITION" (codes.Code's String is
// "FailedPrecondition").
func CodeName(c codes.Code) string {
	s := c.String()
	if s == "OK" || strings.HasPrefix(s, "Code(") {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// Unwrap gives the gRPC status error.
func (e *Error) Unwrap() error { return e.err }

// GRPCStatus lets status.FromError and status.Code see through the Error.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

// ReasonOf is the Reason of err if it is an Error, else "".
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// wrap turns the error of a call into an *Error (nil stays nil).
func wrap(err error) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	s, _ := status.FromError(err)
	out := &Error{Code: s.Code(), Message: s.Message(), Metadata: map[string]string{}, err: err}
	for _, d := range s.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			out.Reason, out.Domain = info.GetReason(), info.GetDomain()
			for k, v := range info.GetMetadata() {
				out.Metadata[k] = v
			}
			break
		}
	}
	// servers before the contract's one error text put the reason in front of the message too
	if out.Reason != "" {
		out.Message = strings.TrimPrefix(out.Message, out.Reason+": ")
	} else {
		out.Reason = CodeName(out.Code)
	}
	return out
}
