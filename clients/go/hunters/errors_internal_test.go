package hunters

import (
	"errors"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// An older server put the reason in front of the message too: the text still names it once.
func TestOlderServersReasonPrefixIsDropped(t *testing.T) {
	s, err := status.New(codes.Aborted, "STALE_VERSION: expected version 3, the match is at 0").WithDetails(
		&errdetails.ErrorInfo{Reason: "STALE_VERSION", Domain: "hunters.v1", Metadata: map[string]string{"current_version": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if !errors.As(wrap(s.Err()), &e) {
		t.Fatal("not an *Error")
	}
	if e.Message != "expected version 3, the match is at 0" ||
		e.Error() != "ABORTED STALE_VERSION: expected version 3, the match is at 0" || e.Metadata["current_version"] != "0" {
		t.Fatalf("message %q, error %q, metadata %v", e.Message, e.Error(), e.Metadata)
	}
}
