package hunters_test

import (
	"context"
	"io"
	"testing"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"github.com/hunters-engine/hunters-engine/clients/go/internal/testserver"
	"google.golang.org/grpc/codes"
)

// A hint is a seat's own view of a match created with hints; a match without them refuses it.
func TestAnalyzeGivesHintsOnlyWhereAllowed(t *testing.T) {
	c, ctx := dial(t)
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(3), Hints: true})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Hints {
		t.Fatal("the match does not say it allows hints")
	}
	hint, err := c.Analyze(ctx, hunters.AnalysisRequest{MatchID: m.MatchID, Token: m.SeatTokens[0], TopK: 3, Iterations: 30})
	if err != nil {
		t.Fatal(err)
	}
	legal, err := c.LegalMoves(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	codes_ := map[int64]bool{}
	for _, l := range legal.Moves {
		codes_[l.Action] = true
	}
	if hint.Seat != 0 || len(hint.Moves) != 3 || !codes_[hint.Moves[0].Action] {
		t.Fatalf("hint %+v", hint)
	}
	seat := 1
	_, err = c.Analyze(ctx, hunters.AnalysisRequest{MatchID: m.MatchID, Token: m.SeatTokens[0], Seat: &seat})
	refused(t, err, codes.PermissionDenied, "SEAT_TOKEN_REQUIRED")
	plain := newMatch(t, c, ctx, "carcassonne_hg", 3)
	_, err = c.Analyze(ctx, hunters.AnalysisRequest{MatchID: plain.MatchID, Token: plain.SeatTokens[0]})
	refused(t, err, codes.FailedPrecondition, "HINTS_NOT_ALLOWED")
	sent := hunters.AnalysisRequest{Config: &hunters.GameConfig{Game: "jaeger_sammler", Players: 2, Seed: hunters.Seed(4)},
		Iterations: 30, TopK: 2}
	a, err := c.Analyze(ctx, sent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Analyze(ctx, sent)
	if err != nil {
		t.Fatal(err)
	}
	if a.Moves[0].Action != b.Moves[0].Action || a.Position.Margin != b.Position.Margin || len(a.Moves) != 2 {
		t.Fatalf("not deterministic: %+v %+v", a, b)
	}
}

// A finished match's review: requested, computed once, the stored one returned again.
func TestReviewOfAFinishedMatch(t *testing.T) {
	address, stop, err := testserver.Start("HUNTERS_REVIEW_ITERATIONS=10")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := hunters.Dial(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(3),
		Bots: map[int]string{0: "random", 1: "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RequestReview(ctx, m.MatchID)
	refused(t, err, codes.FailedPrecondition, "MATCH_NOT_OVER")
	w, err := c.Watch(ctx, m.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := w.Recv(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	done, err := c.WaitReview(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != "done" || done.DecisionsDone != len(done.Review.GetDecisions()) || len(done.Review.GetWorst()) == 0 {
		t.Fatalf("review %s %d of %d", done.Status, done.DecisionsDone, done.DecisionsTotal)
	}
	worst := done.Review.GetDecisions()[done.Review.GetWorst()[0]]
	if worst.GetBand() < pb.MoveBand_MOVE_BAND_INACCURACY {
		t.Fatalf("the worst move is %v", worst.GetBand())
	}
	again, err := c.RequestReview(ctx, m.MatchID)
	if err != nil || again.Status != "done" || len(again.Review.GetDecisions()) != len(done.Review.GetDecisions()) {
		t.Fatalf("asked again: %+v %v", again, err)
	}
}
