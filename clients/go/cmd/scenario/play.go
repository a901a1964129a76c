package main

// The ops that play: a move, waiting and watching, a whole seat by unary calls and by a seat stream.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

func (r *run) play(c *hunters.Client, s Step) ([]field, error) {
	var p hunters.Play
	if s.Action != nil {
		p = hunters.ByAction(*s.Action)
	} else {
		m, err := r.chosen(c, s)
		if err != nil {
			return nil, err
		}
		p = hunters.ByMove(m.Move)
		if s.By == "action" {
			p = hunters.ByAction(m.Action)
		}
	}
	if s.LoseReplies > 0 {
		r.hook.lose("PlayMove", s.LoseReplies)
	}
	res, err := c.Play(r.ctx, r.matchID(s), r.token(s), p, &hunters.PlayOptions{ExpectedVersion: s.ExpectedVersion, RequestID: s.RequestID})
	if err != nil {
		return nil, err
	}
	out := []field{f("version", res.Version), f("over", res.IsOver), f("winners", res.Winners)}
	if tries := r.hook.requests("PlayMove"); len(tries) > 1 {
		ids := map[string]bool{}
		for _, t := range tries {
			ids[t.(*pb.PlayMoveRequest).GetRequestId()] = true
		}
		out = append(out, f("same_request_id", len(ids) == 1 && !ids[""]))
	}
	return out, nil
}

func (r *run) waitTurn(c *hunters.Client, s Step) ([]field, error) {
	ev, err := c.WaitTurn(r.ctx, r.matchID(s), *s.Seat, s.From)
	if err == io.EOF {
		return []field{f("ended", true)}, nil
	}
	if err != nil {
		return nil, err
	}
	return []field{f("version", ev.Version), f("player", ev.State.GetPlayer()), f("over", ev.MatchOver)}, nil
}

func (r *run) watch(c *hunters.Client, s Step) ([]field, error) {
	ctx, cancel := r.ctx, context.CancelFunc(func() {})
	if s.TimeoutMs > 0 {
		ctx, cancel = context.WithTimeout(ctx, time.Duration(s.TimeoutMs)*time.Millisecond)
	}
	defer cancel()
	seen := map[int64]bool{}
	w, err := c.Watch(ctx, r.matchID(s), s.From)
	for err == nil {
		var ev *hunters.MatchEvent
		if ev, err = w.Recv(); err == nil {
			seen[ev.Version] = true
		}
	}
	if err != io.EOF {
		var e *hunters.Error
		if !errors.As(err, &e) {
			return nil, err
		}
		var fields []field
		if len(seen) > 0 {
			fields = []field{f("versions", span(seen))}
		}
		return nil, &failed{e, fields}
	}
	return []field{f("versions", span(seen))}, nil
}

func (r *run) playByUnary(c *hunters.Client, s Step) ([]field, error) {
	id := r.matchID(s)
	token := r.matches[s.Match].SeatTokens[*s.Seat]
	version, moves := s.From, 0
	for {
		ev, err := c.WaitTurn(r.ctx, id, *s.Seat, version)
		if err == io.EOF || (err == nil && ev.MatchOver) {
			break
		}
		if err != nil {
			return nil, err
		}
		legal, err := c.LegalMoves(r.ctx, id)
		if err != nil {
			return nil, err
		}
		m := legal.Moves[index(legal.Version, len(legal.Moves), 0)]
		p := hunters.ByAction(m.Action)
		if legal.Version%2 == 0 { // structured moves and action codes in turn
			p = hunters.ByMove(m.Move)
		}
		res, err := c.Play(r.ctx, id, token, p, &hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version), ChangesOnly: true})
		if err != nil {
			return nil, err
		}
		moves, version = moves+1, res.Version
		if res.IsOver {
			break
		}
	}
	end, err := c.GetMatch(r.ctx, id)
	if err != nil {
		return nil, err
	}
	out := []field{f("moves", moves), f("version", end.Version), f("over", hunters.IsOver(end.State))}
	return append(out, stateFields(end.State)...), nil
}

func (r *run) playBySeatStream(c *hunters.Client, s Step) ([]field, error) {
	id, token := r.matchID(s), r.token(s)
	moves, played, retried, reconnects := 0, 0, 0, 0
	var refused []*hunters.Error
	seen := map[int64]bool{}
	var last *hunters.MatchEvent
	illegalSent := false
	var resume *int64
	retriesDue := 0
	if s.ResendMove > 0 {
		retriesDue = 1
	}
	for {
		stream, err := c.Seat(r.ctx, id, token, resume)
		if err != nil {
			return nil, err
		}
		reopen := false
	read:
		for {
			m, err := stream.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				stream.Close()
				return nil, err
			}
			if m.Event != nil {
				seen[m.Event.Version] = true
				last = m.Event
			}
			if m.Played != nil {
				if m.Played.Retried {
					retried++
				} else {
					played++
				}
				if reconnects == 0 && played >= s.ReconnectAfterMoves && retried >= retriesDue && played == moves {
					reopen = true
					break read
				}
			}
			if m.Refused != nil {
				refused = append(refused, m.Refused.Err)
			}
			if t := m.Turn; t != nil {
				if !illegalSent && moves+1 == s.IllegalAtMove {
					if err := stream.Play(t.Version, hunters.ByAction(s.IllegalAction), ""); err != nil {
						return nil, err
					}
					illegalSent = true
					continue
				}
				action := t.Moves[index(t.Version, len(t.Moves), 0)].Action
				requestID := fmt.Sprintf("seat-%d", t.Version)
				if err := stream.Play(t.Version, hunters.ByAction(action), requestID); err != nil {
					return nil, err
				}
				moves++
				if moves == s.ResendMove {
					if err := stream.Play(t.Version, hunters.ByAction(action), requestID); err != nil {
						return nil, err
					}
				}
			}
		}
		stream.Close()
		if !reopen {
			break
		}
		reconnects++
		v := stream.LastVersion()
		resume = &v
	}
	for _, e := range refused {
		r.more = append(r.more, moreLine{"refused", e})
	}
	if last == nil {
		return nil, errors.New("the seat stream sent no version")
	}
	out := []field{f("moves", moves), f("played", played), f("retried", retried), f("refused", len(refused)),
		f("reconnects", reconnects), f("versions", span(seen)), f("over", last.MatchOver)}
	return append(out, stateFields(last.State)...), nil
}
