package hunters

// The rules every client of the project follows alike (docs/clients.md#one-client-behaviour):
// which writes are sent again when their reply is lost, how often and after what pause, and the
// request ids that make that safe.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Attempts is how many tries in all a retried write gets when its reply is lost.
const Attempts = 3

// RetriedCodes are the codes after which a write may or may not have been applied: it is sent
// again, identical.
var RetriedCodes = map[codes.Code]bool{codes.Unavailable: true, codes.DeadlineExceeded: true}

// Pause is the wait after the failed try number attempt (1, 2, ...): 50 ms, then 100 ms, doubling.
func Pause(attempt int) time.Duration { return time.Duration(25<<attempt) * time.Millisecond }

// NewRequestID is a request id for a write that has none: 128 random bits as 32 lowercase hex digits.
func NewRequestID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// outcome of a failed try of a write
type outcome int

const (
	giveUp outcome = iota
	retry
	done // a DeleteMatch retry answered MATCH_NOT_FOUND: the lost try deleted the match
)

func after(e *Error, attempt, attempts int, deletes bool) outcome {
	if deletes && attempt > 1 && e.Reason == "MATCH_NOT_FOUND" {
		return done
	}
	if attempt < attempts && RetriedCodes[e.Code] {
		return retry
	}
	return giveUp
}

// write runs send (one try, under its own deadline) until it succeeds, is done, or gives up;
// ctx's end stops the retries.
func (c *Client) write(ctx context.Context, attempts int, deletes bool, send func(context.Context) error) error {
	for attempt := 1; ; attempt++ {
		try, cancel := c.deadline(ctx)
		err := send(try)
		cancel()
		if err == nil {
			return nil
		}
		e := wrap(err).(*Error)
		switch after(e, attempt, attempts, deletes) {
		case done:
			return nil
		case giveUp:
			return e
		}
		if ctx.Err() != nil {
			return e
		}
		select {
		case <-ctx.Done():
			return wrap(status.FromContextError(ctx.Err()).Err())
		case <-time.After(Pause(attempt)):
		}
	}
}

// deadline is ctx with the client's per-call Timeout (when it is set): the earlier deadline wins.
func (c *Client) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.Timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.Timeout)
}
