package hunters_test

import (
	"context"
	"io"
	"sync"
	"testing"

	pb "github.com/hunters/hunters/clients/go/gen/hunters/v1"
	"github.com/hunters/hunters/clients/go/hunters"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// recorder is a connection to no server (hunters.New takes any grpc.ClientConnInterface): it keeps
// the first request of every seat stream and every PlayMove request; its streams end at once.
type recorder struct {
	mu    sync.Mutex
	opens []*pb.PlaySeatOpen
	moves []*pb.PlayMoveRequest
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
	if method != "/hunters.v1.MatchService/PlaySeat" {
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
	if open := m.(*pb.PlaySeatRequest).GetOpen(); open != nil {
		s.r.mu.Lock()
		s.r.opens = append(s.r.opens, proto.Clone(open).(*pb.PlaySeatOpen))
		s.r.mu.Unlock()
	}
	return nil
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
