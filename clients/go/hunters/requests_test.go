package hunters_test

import (
	"context"
	"io"
	"regexp"
	"sync"
	"testing"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// recorder is a connection to no server (hunters.New takes any grpc.ClientConnInterface): it keeps
// the first request of every seat stream and every PlayMove request; its streams end at once.
type recorder struct {
	mu        sync.Mutex
	opens     []*pb.PlaySeatOpen
	seatMoves []*pb.PlaySeatMove
	moves     []*pb.PlayMoveRequest
	deadlines []time.Duration // of each Perft call: what was left of it when it began (0: none)
}

func (r *recorder) Invoke(ctx context.Context, method string, args, reply interface{}, _ ...grpc.CallOption) error {
	if method != "/hunters.v1.MatchService/PlayMove" {
		return status.Error(codes.Unimplemented, method)
	}
	r.mu.Lock()
	r.moves = append(r.moves, proto.Clone(args.(*pb.PlayMoveRequest)).(*pb.PlayMoveRequest))
	r.mu.Unlock()
	proto.Merge(reply.(*pb.PlayMoveResponse), &pb.PlayMoveResponse{Version: 1, State: &pb.MatchState{}})
	return nil
}

func (r *recorder) NewStream(ctx context.Context, _ *grpc.StreamDesc, method string, _ ...grpc.CallOption) (grpc.ClientStream, error) {
	switch method {
	case "/hunters.v1.MatchService/PlaySeat":
	case "/hunters.v1.OracleService/Perft":
		left := time.Duration(0)
		if d, ok := ctx.Deadline(); ok {
			left = time.Until(d)
		}
		r.mu.Lock()
		r.deadlines = append(r.deadlines, left)
		r.mu.Unlock()
	default:
		return nil, status.Error(codes.Unimplemented, method)
	}
	return &recordedStream{r: r, ctx: ctx}, nil
}

type recordedStream struct {
	r   *recorder
	ctx context.Context
}

func (s *recordedStream) Header() (metadata.MD, error) { return nil, nil }
func (s *recordedStream) Trailer() metadata.MD         { return nil }
func (s *recordedStream) CloseSend() error             { return nil }
func (s *recordedStream) Context() context.Context     { return s.ctx }
func (s *recordedStream) RecvMsg(interface{}) error    { return io.EOF } // no more versions
func (s *recordedStream) SendMsg(m interface{}) error {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	if req, ok := m.(*pb.PlaySeatRequest); ok && req.GetOpen() != nil {
		s.r.opens = append(s.r.opens, proto.Clone(req.GetOpen()).(*pb.PlaySeatOpen))
	} else if ok && req.GetPlay() != nil {
		s.r.seatMoves = append(s.r.seatMoves, proto.Clone(req.GetPlay()).(*pb.PlaySeatMove))
	}
	return nil
}

// Every move carries a request id, made up (32 hex digits) when none is given: Play's and a seat
// stream's. No server needed.
func TestEveryMoveCarriesARequestID(t *testing.T) {
	r := &recorder{}
	c := hunters.New(r)
	ctx := context.Background()
	for _, id := range []string{"", "mine"} {
		if _, err := c.Play(ctx, "m", "t", hunters.ByAction(3), &hunters.PlayOptions{RequestID: id}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Seat(ctx, "m", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Play(0, hunters.ByAction(1), ""); err != nil {
		t.Fatal(err)
	}
	s.Close()
	made := regexp.MustCompile(`^[0-9a-f]{32}$`)
	if len(r.moves) != 2 || !made.MatchString(r.moves[0].GetRequestId()) || r.moves[1].GetRequestId() != "mine" {
		t.Fatalf("PlayMove requests: %v", r.moves)
	}
	if len(r.seatMoves) != 1 || !made.MatchString(r.seatMoves[0].GetRequestId()) {
		t.Fatalf("seat moves: %v", r.seatMoves)
	}
}

// Perft runs under its own Timeout, else the client's. No server needed.
func TestPerftHasADeadline(t *testing.T) {
	r := &recorder{}
	c := hunters.New(r)
	c.Timeout = 20 * time.Second
	ctx := context.Background()
	cfg := hunters.GameConfig{Game: "g", Players: 2}
	for _, timeout := range []time.Duration{1500 * time.Millisecond, 0} {
		count, err := c.Perft(ctx, hunters.PerftRequest{Config: cfg, Depth: 1, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := count.Recv(); err != io.EOF {
			t.Fatal(err)
		}
	}
	if len(r.deadlines) != 2 || r.deadlines[0] <= 0 || r.deadlines[0] > 1500*time.Millisecond ||
		r.deadlines[1] <= 1500*time.Millisecond || r.deadlines[1] > 20*time.Second {
		t.Fatalf("deadlines %v", r.deadlines)
	}
}

// PlaySeat opens its stream changes-only unless SeatOptions.WholeEvents; Seat opens it whole,
// SeatChangesOnly changes-only; Play sends PlayOptions.ChangesOnly. No server needed.
func TestRequestsCarryChangesOnly(t *testing.T) {
	r := &recorder{}
	c := hunters.New(r)
	ctx := context.Background()
	choose := func(*hunters.Turn) (hunters.Play, error) { return hunters.ByAction(0), nil }
	if last, err := c.PlaySeat(ctx, "m1", "t", choose, nil); err != nil || last != nil {
		t.Fatalf("PlaySeat: %v, %v", last, err)
	}
	if _, err := c.PlaySeat(ctx, "m2", "t", choose, &hunters.SeatOptions{WholeEvents: true, ResumeVersion: hunters.Version(4)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlaySeat(ctx, "m3", "t", choose, &hunters.SeatOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func() (*hunters.SeatStream, error){
		func() (*hunters.SeatStream, error) { return c.Seat(ctx, "m4", "t", nil) },
		func() (*hunters.SeatStream, error) { return c.SeatChangesOnly(ctx, "m5", "t", nil) },
	} {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	want := []*pb.PlaySeatOpen{
		{MatchId: "m1", ChangesOnly: true},
		{MatchId: "m2", ResumeVersion: hunters.Version(4)},
		{MatchId: "m3", ChangesOnly: true},
		{MatchId: "m4"},
		{MatchId: "m5", ChangesOnly: true},
	}
	if len(r.opens) != len(want) {
		t.Fatalf("%d streams opened: %v", len(r.opens), r.opens)
	}
	for i := range want {
		if !proto.Equal(r.opens[i], want[i]) {
			t.Fatalf("stream %d opened with %v, want %v", i, r.opens[i], want[i])
		}
	}

	for _, changesOnly := range []bool{false, true} {
		if _, err := c.Play(ctx, "m", "t", hunters.ByAction(3),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(2), ChangesOnly: changesOnly}); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.moves) != 2 || r.moves[0].GetChangesOnly() || !r.moves[1].GetChangesOnly() ||
		r.moves[1].GetExpectedVersion() != 2 || r.moves[1].GetAction() != 3 {
		t.Fatalf("PlayMove requests: %v", r.moves)
	}
}
