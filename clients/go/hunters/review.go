package hunters

// Analyses of positions and reviews of finished matches by the server's strong search
// (docs/review.md): Analyze, RequestReview, GetReview and WaitReview.

import (
	"context"
	"fmt"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
)

// The review's messages as generated: the review, each decision, the bands.
type (
	Review         = pb.Review
	ReviewDecision = pb.ReviewDecision
	MoveBand       = pb.MoveBand
)

// AnalysisRequest says what Analyze analyses: a stored match (MatchID, at Version, nil: the latest;
// Token: before its end, the seat's own token, in a match created with Hints) or a position sent
// (Config and Moves); from Seat's view (nil: the token's seat before the end, else the seat to
// move). TopK moves are listed (0: 5); Iterations (0: the strong bot's default) make it deterministic.
type AnalysisRequest struct {
	MatchID    string
	Version    *int64
	Token      string
	Config     *GameConfig
	Moves      []*Move
	Seat       *int
	TopK       int
	Iterations int
}

// Estimate is what the search expects for the analysed seat: its estimated final Margin (own final
// score minus the best other one), Win chance, the margin's Stderr (nil under two visits), the Visits
// they rest on, every seat's expected Scores and Margins.
type Estimate struct {
	Visits  int64
	Margin  float64
	Stderr  *float64
	Win     float64
	Scores  []float64
	Margins []float64
}

// MoveEstimate is an Estimate after one move of the seat to move.
type MoveEstimate struct {
	Estimate
	Move   *Move
	Action int64
}

// Analysis is a position analysed for Seat: Moves (when Seat is to move) ranked, the first the
// strong bot's move; Player is the seat to move (-1 once over); Analyst the searcher's bot spec.
type Analysis struct {
	Game       string
	Version    int64
	Seat       int
	Player     int
	Analyst    string
	Iterations int64
	Position   Estimate
	Moves      []MoveEstimate
}

// ReviewReport is a match's review as it stands: Status "not_requested", "running" (with its
// progress), "done" (with the Review) or "failed" (with the Message saying why).
type ReviewReport struct {
	MatchID        string
	Status         string
	DecisionsDone  int
	DecisionsTotal int
	Review         *Review
	Message        string
}

// Finished says whether the review is done or failed: nothing more will change.
func (r *ReviewReport) Finished() bool { return r.Status == "done" || r.Status == "failed" }

// Analyze analyses a position with the server's strong search, from one seat's view.
func (c *Client) Analyze(ctx context.Context, r AnalysisRequest) (*Analysis, error) {
	req := &pb.AnalyzeRequest{MatchId: r.MatchID, Version: r.Version, Moves: r.Moves, TopK: int32(r.TopK),
		Iterations: int32(r.Iterations)}
	if r.Config != nil {
		cfg, err := configPB(*r.Config)
		if err != nil {
			return nil, err
		}
		req.Config = cfg
	}
	if r.Seat != nil {
		seat := int32(*r.Seat)
		req.Seat = &seat
	}
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	a, err := c.oracle.Analyze(withToken(ctx, r.Token), req)
	if err != nil {
		return nil, wrap(err)
	}
	out := &Analysis{Game: a.GetGame(), Version: a.GetVersion(), Seat: int(a.GetSeat()), Player: int(a.GetPlayer()),
		Analyst: a.GetAnalyst(), Iterations: a.GetIterations(), Position: estimate(a.GetPosition())}
	for _, m := range a.GetMoves() {
		out.Moves = append(out.Moves, MoveEstimate{Estimate: estimate(m.GetEstimate()), Move: m.GetMove().GetMove(),
			Action: m.GetMove().GetAction()})
	}
	return out, nil
}

func estimate(e *pb.Estimate) Estimate {
	return Estimate{Visits: e.GetVisits(), Margin: e.GetMargin(), Stderr: e.Stderr, Win: e.GetWin(),
		Scores: e.GetScores(), Margins: e.GetMargins()}
}

var reviewStatus = map[pb.ReviewStatus]string{
	pb.ReviewStatus_REVIEW_STATUS_NOT_REQUESTED: "not_requested",
	pb.ReviewStatus_REVIEW_STATUS_RUNNING:       "running",
	pb.ReviewStatus_REVIEW_STATUS_DONE:          "done",
	pb.ReviewStatus_REVIEW_STATUS_FAILED:        "failed",
}

func reviewReport(r *pb.ReviewReport) *ReviewReport {
	status, ok := reviewStatus[r.GetStatus()]
	if !ok {
		status = "failed"
	}
	return &ReviewReport{MatchID: r.GetMatchId(), Status: status, DecisionsDone: int(r.GetDecisionsDone()),
		DecisionsTotal: int(r.GetDecisionsTotal()), Review: r.GetReview(), Message: r.GetMessage()}
}

// RequestReview starts the review of a finished match, or finds it (computed once by the server and
// stored with the match): "running" with its progress, or "done" with the review.
func (c *Client) RequestReview(ctx context.Context, matchID string) (*ReviewReport, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.RequestReview(ctx, &pb.RequestReviewRequest{MatchId: matchID})
	if err != nil {
		return nil, wrap(err)
	}
	return reviewReport(r.GetReport()), nil
}

// GetReview reads a match's review as it stands.
func (c *Client) GetReview(ctx context.Context, matchID string) (*ReviewReport, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.GetReview(ctx, &pb.GetReviewRequest{MatchId: matchID})
	if err != nil {
		return nil, wrap(err)
	}
	return reviewReport(r.GetReport()), nil
}

// WaitReview asks for a finished match's review and waits until it is done (or failed), polling
// GetReview every 250 ms at first, 2 s at most, until ctx ends.
func (c *Client) WaitReview(ctx context.Context, matchID string) (*ReviewReport, error) {
	report, err := c.RequestReview(ctx, matchID)
	wait := 250 * time.Millisecond
	for err == nil && !report.Finished() {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the review of %s is not done: %w", matchID, ctx.Err())
		case <-time.After(wait):
		}
		if wait < 2*time.Second {
			wait *= 2
		}
		report, err = c.GetReview(ctx, matchID)
	}
	return report, err
}
