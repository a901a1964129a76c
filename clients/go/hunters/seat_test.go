package hunters_test

import (
	"errors"
	"io"
	"sync"
	"testing"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"google.golang.org/grpc/codes"
)

// Two bots, one seat stream each, play a whole game: every version reaches both, each turn is its seat's.
func TestSeatStreamsPlayAWholeGame(t *testing.T) {
	c, ctx := dial(t)
	m := newMatch(t, c, ctx, "carcassonne_hg", 31)
	seen := [2][]int64{}
	turns := [2][]int64{}
	last := [2]*hunters.MatchEvent{}
	errs := bothSeats(func(seat int) (err error) {
		choose := func(turn *hunters.Turn) (hunters.Play, error) {
			if turn.Seat != seat {
				return hunters.Play{}, errors.New("a turn of another seat")
			}
			turns[seat] = append(turns[seat], turn.Version)
			return hunters.ByAction(turn.Moves[len(turn.Moves)/2].Action), nil
		}
		onEvent := func(ev *hunters.MatchEvent) { seen[seat] = append(seen[seat], ev.Version) }
		last[seat], err = c.PlaySeat(ctx, m.MatchID, m.SeatTokens[seat], choose, &hunters.SeatOptions{OnEvent: onEvent})
		return err
	})
	info, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != pb.MatchStatus_MATCH_STATUS_OVER || info.Version < 40 {
		t.Fatalf("the match is %v at version %d", info.Status, info.Version)
	}
	for seat := 0; seat < 2; seat++ {
		if errs[seat] != nil {
			t.Fatalf("seat %d: %v", seat, errs[seat])
		}
		if last[seat] == nil || !last[seat].MatchOver || last[seat].Version != info.Version {
			t.Fatalf("seat %d's last version: %+v", seat, last[seat])
		}
		if int64(len(seen[seat])) != info.Version+1 {
			t.Fatalf("seat %d saw %d versions of %d", seat, len(seen[seat]), info.Version+1)
		}
	}
	if int64(len(turns[0])+len(turns[1])) != info.Version {
		t.Fatalf("%d + %d turns for %d moves", len(turns[0]), len(turns[1]), info.Version)
	}
}

// A stale version and an illegal move are refused on the stream with PlayMove's reasons; the turn
// comes again and nothing changes.
func TestSeatStreamRefusals(t *testing.T) {
	c, ctx := dial(t)
	m := newMatch(t, c, ctx, "carcassonne_hg", 32)
	s, err := c.Seat(ctx, m.MatchID, m.SeatTokens[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var reasons []string
	turns := 0
	for turns < 3 {
		msg, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if msg.Refused != nil {
			reasons = append(reasons, msg.Refused.Err.Reason)
		}
		if msg.Turn != nil {
			turns++
			if turns == 1 {
				err = s.Play(7, hunters.ByAction(msg.Turn.Moves[0].Action), "")
			} else if turns == 2 {
				err = s.Play(msg.Turn.Version, hunters.ByAction(1_000_000), "")
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(reasons) != 2 || reasons[0] != "STALE_VERSION" {
		t.Fatalf("refusals: %v", reasons)
	}
	_, err = c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(1_000_000), nil)
	if hunters.ReasonOf(err) != reasons[1] {
		t.Fatalf("PlayMove says %v, the stream said %s", err, reasons[1])
	}
	info, _ := c.GetMatch(ctx, m.MatchID)
	if info.Version != 0 {
		t.Fatalf("version %d after refusals", info.Version)
	}
}

// A bad token ends the stream with PERMISSION_DENIED / INVALID_TOKEN.
func TestSeatStreamBadToken(t *testing.T) {
	c, ctx := dial(t)
	m := newMatch(t, c, ctx, "carcassonne_hg", 33)
	s, err := c.Seat(ctx, m.MatchID, "0000", nil)
	if err == nil {
		defer s.Close()
		_, err = s.Recv()
	}
	if err == io.EOF {
		t.Fatal("the stream ended without an error")
	}
	refused(t, err, codes.PermissionDenied, "INVALID_TOKEN")
}

// PlaySeat's versions carry what changed (no board) while its turns are whole; WholeEvents asks for
// the board in every version; a ChangesOnly Play reply has no board either.
func TestCheapFormsLeaveTheBoardOut(t *testing.T) {
	c, ctx := dial(t)
	for _, whole := range []bool{false, true} {
		m := newMatch(t, c, ctx, "carcassonne_hg", 33)
		withBoard := [2]int{} // versions by seat, with a board and without
		withoutBoard := [2]int{}
		turnsWithout := [2]int{}
		errs := bothSeats(func(seat int) error {
			choose := func(turn *hunters.Turn) (hunters.Play, error) {
				if turn.State.GetCarcassonne() == nil {
					turnsWithout[seat]++
				}
				return hunters.ByAction(turn.Moves[0].Action), nil
			}
			onEvent := func(ev *hunters.MatchEvent) {
				if ev.State.GetCarcassonne() != nil {
					withBoard[seat]++
				} else {
					withoutBoard[seat]++
				}
			}
			_, err := c.PlaySeat(ctx, m.MatchID, m.SeatTokens[seat], choose,
				&hunters.SeatOptions{OnEvent: onEvent, WholeEvents: whole})
			return err
		})
		wrongForm := withBoard // the versions of the form not asked for
		if whole {
			wrongForm = withoutBoard
		}
		for seat := 0; seat < 2; seat++ {
			if errs[seat] != nil {
				t.Fatal(errs[seat])
			}
			if turnsWithout[seat] != 0 {
				t.Fatalf("seat %d had %d turns without the board", seat, turnsWithout[seat])
			}
			if wrongForm[seat] != 0 {
				t.Fatalf("whole=%v: seat %d saw %d versions of the other form (%d with a board, %d without)",
					whole, seat, wrongForm[seat], withBoard[seat], withoutBoard[seat])
			}
		}
	}
	m := newMatch(t, c, ctx, "carcassonne_hg", 34)
	legal, err := c.LegalMoves(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(legal.Moves[0].Action),
		&hunters.PlayOptions{ChangesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 || r.State.GetCarcassonne() != nil || len(r.State.GetScores()) != 2 {
		t.Fatalf("a changes-only reply: %+v", r.State)
	}
}

// bothSeats runs play(seat) for seats 0 and 1 at once (a bot each, as two programs would) and
// returns their errors by seat.
func bothSeats(play func(seat int) error) [2]error {
	var wg sync.WaitGroup
	errs := [2]error{}
	for seat := 0; seat < 2; seat++ {
		wg.Add(1)
		go func(seat int) {
			defer wg.Done()
			errs[seat] = play(seat)
		}(seat)
	}
	wg.Wait()
	return errs
}
