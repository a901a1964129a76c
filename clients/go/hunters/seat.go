package hunters

import (
	"context"
	"errors"
	"io"
	"sync"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"google.golang.org/grpc/codes"
)

// Turn says the seat is to move (a seat stream's YourTurn): answer with SeatStream.Play(Version, ...).
type Turn struct {
	Version int64
	Seat    int
	State   *MatchState // the state as GetMatch shows it at Version
	Moves   []LegalMove // every legal move with its action code
}

// SeatPlayed says a move of this stream was stored (durable): Version is the match's version after
// it; Retried: its request id had been played before, nothing was played again.
type SeatPlayed struct {
	Version   int64
	RequestID string
	Retried   bool
}

// SeatRefused says a move of this stream was refused and nothing changed; the turn is offered again.
// Err is what Play would have returned for the same move (Code, Reason, Metadata).
type SeatRefused struct {
	Version   int64 // the version the refused move carried
	RequestID string
	Err       *Error
}

// SeatMessage is one message of a seat stream: one or more fields are set, to be read in this
// order: Event, then Played or Refused, then Turn (the server sends what is ready together as one
// message, e.g. a version and the turn at it).
type SeatMessage struct {
	Event   *MatchEvent // a version of the match, as Watch gives it
	Turn    *Turn
	Played  *SeatPlayed
	Refused *SeatRefused
}

// SeatStream is one seat of a match on one PlaySeat stream. Recv from one goroutine; Play may be
// called from any.
// It does not reconnect: after an error, open another with resumeVersion = LastVersion().
type SeatStream struct {
	stream pb.MatchService_PlaySeatClient
	cancel context.CancelFunc
	send   sync.Mutex
	last   int64
}

// LastVersion is the last version the stream delivered (-1 before any, or the resume version).
func (s *SeatStream) LastVersion() int64 { return s.last }

// Seat opens a seat stream for the seat of token: every version of the match from the creation on
// (after *resumeVersion, the last one seen, when reconnecting; nil: from the creation), the seat's
// turns and the answers to its moves, each version's state whole. PlaySeat runs the whole bot loop
// on one. Close it when done.
func (c *Client) Seat(ctx context.Context, matchID, token string, resumeVersion *int64) (*SeatStream, error) {
	return c.openSeat(ctx, matchID, token, resumeVersion, false)
}

// SeatChangesOnly opens a seat stream as Seat does, whose versions carry what changed: their
// states have the fields every game has (player, status, scores, winners) but not the game's view.
// Each Turn still carries the whole state.
func (c *Client) SeatChangesOnly(ctx context.Context, matchID, token string, resumeVersion *int64) (*SeatStream, error) {
	return c.openSeat(ctx, matchID, token, resumeVersion, true)
}

func (c *Client) openSeat(ctx context.Context, matchID, token string, resumeVersion *int64, changesOnly bool) (*SeatStream, error) {
	ctx, cancel := context.WithCancel(withToken(ctx, token))
	s, err := c.matches.PlaySeat(ctx)
	if err == nil {
		err = s.Send(&pb.PlaySeatRequest{Kind: &pb.PlaySeatRequest_Open{
			Open: &pb.PlaySeatOpen{MatchId: matchID, ResumeVersion: resumeVersion, ChangesOnly: changesOnly}}})
	}
	if err != nil {
		cancel()
		return nil, wrap(err)
	}
	last := int64(-1)
	if resumeVersion != nil {
		last = *resumeVersion
	}
	return &SeatStream{stream: s, cancel: cancel, last: last}, nil
}

// Play answers a turn (its version) with a move or an action code; the answer arrives on the stream.
// The move carries requestID, or one made up when it is empty.
func (s *SeatStream) Play(version int64, p Play, requestID string) error {
	if requestID == "" {
		requestID = NewRequestID()
	}
	req := &pb.PlaySeatMove{Version: version, RequestId: requestID}
	switch {
	case p.move != nil:
		req.Play = &pb.PlaySeatMove_Move{Move: p.move}
	case p.action != nil:
		req.Play = &pb.PlaySeatMove_Action{Action: *p.action}
	default:
		return errors.New("hunters: an empty Play (use ByMove or ByAction)")
	}
	s.send.Lock()
	defer s.send.Unlock()
	return wrap(s.stream.Send(&pb.PlaySeatRequest{Kind: &pb.PlaySeatRequest_Play{Play: req}}))
}

// Recv is the next message; io.EOF after the match's last version (or once it is deleted).
func (s *SeatStream) Recv() (*SeatMessage, error) {
	for {
		r, err := s.stream.Recv()
		if err != nil {
			if err == io.EOF {
				return nil, err
			}
			return nil, wrap(err)
		}
		m := &SeatMessage{}
		if e := r.GetEvent(); e != nil {
			m.Event = matchEvent(e)
			s.last = m.Event.Version
		}
		if p := r.GetPlayed(); p != nil {
			m.Played = &SeatPlayed{Version: p.GetVersion(), RequestID: p.GetRequestId(), Retried: p.GetRetried()}
		}
		if f := r.GetRefused(); f != nil {
			meta := map[string]string{}
			for key, v := range f.GetMetadata() {
				meta[key] = v
			}
			e := &Error{Code: codes.Code(f.GetCode()), Reason: f.GetReason(), Domain: "hunters.v1",
				Message: f.GetMessage(), Metadata: meta}
			m.Refused = &SeatRefused{Version: f.GetVersion(), RequestID: f.GetRequestId(), Err: e}
		}
		if t := r.GetYourTurn(); t != nil {
			m.Turn = &Turn{Version: t.GetVersion(), Seat: int(t.GetSeat()), State: t.GetState(),
				Moves: legalMoves(t.GetMoves())}
		}
		if m.Event != nil || m.Played != nil || m.Refused != nil || m.Turn != nil {
			return m, nil
		}
		// nothing this client knows (a field of a newer server): skipped
	}
}

// Close ends the stream.
func (s *SeatStream) Close() {
	s.send.Lock()
	_ = s.stream.CloseSend()
	s.send.Unlock()
	s.cancel()
}

// SeatOptions tune PlaySeat.
type SeatOptions struct {
	ResumeVersion *int64             // the last version seen, when reconnecting
	OnEvent       func(*MatchEvent)  // every version of the match
	OnRefused     func(*SeatRefused) // a refused move; nil: PlaySeat returns its error
	// WholeEvents asks for every version's whole state (the board) in OnEvent. By default the
	// versions carry what changed (SeatChangesOnly), which costs the server less; turns are whole.
	WholeEvents bool
}

// PlaySeat plays the seat of token until the match ends, on one stream: choose(turn) returns the
// move (ByAction or ByMove). A refused move ends PlaySeat with its *Error, unless opts.OnRefused
// takes it (the turn is then offered again). It returns the last version seen (its state whole only
// with opts.WholeEvents).
func (c *Client) PlaySeat(ctx context.Context, matchID, token string, choose func(*Turn) (Play, error),
	opts *SeatOptions) (*MatchEvent, error) {
	var o SeatOptions
	if opts != nil {
		o = *opts
	}
	s, err := c.openSeat(ctx, matchID, token, o.ResumeVersion, !o.WholeEvents)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var last *MatchEvent
	for {
		m, err := s.Recv()
		if err == io.EOF {
			return last, nil
		}
		if err != nil {
			return last, err
		}
		if m.Event != nil {
			last = m.Event
			if o.OnEvent != nil {
				o.OnEvent(m.Event)
			}
		}
		if m.Refused != nil {
			if o.OnRefused == nil {
				return last, m.Refused.Err
			}
			o.OnRefused(m.Refused)
		}
		if m.Turn != nil {
			p, err := choose(m.Turn)
			if err != nil {
				return last, err
			}
			if err := s.Play(m.Turn.Version, p, ""); err != nil {
				return last, err
			}
		}
	}
}
