package main

// The ops of analyses and reviews: a position analysed, a hint, a finished match's review. Figures
// are written rounded half away from zero by integer arithmetic (fixed), so that every client
// writes the same.

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

// fixed is x with digits decimals, half away from zero, never "-0": the same text in every client.
func fixed(x float64, digits int) string {
	scale := int64(math.Pow(10, float64(digits)))
	n := int64(math.Floor(math.Abs(x)*float64(scale) + 0.5))
	sign := ""
	if x < 0 && n != 0 {
		sign = "-"
	}
	if digits == 0 {
		return fmt.Sprintf("%s%d", sign, n)
	}
	return fmt.Sprintf("%s%d.%0*d", sign, n/scale, digits, n%scale)
}

func (r *run) analyze(c *hunters.Client, s Step) ([]field, error) {
	req := hunters.AnalysisRequest{Seat: s.Seat, TopK: s.TopK, Iterations: s.Iterations}
	if s.Match != "" {
		req.MatchID, req.Version, req.Token = r.matchID(s), s.Version, r.token(s)
	} else {
		req.Config = &hunters.GameConfig{Game: s.Game, Players: s.Players, Seed: s.Seed}
	}
	a, err := c.Analyze(r.ctx, req)
	if err != nil {
		return nil, err
	}
	var top interface{}
	if len(a.Moves) > 0 {
		top = a.Moves[0].Action
	}
	return []field{f("version", a.Version), f("seat", a.Seat), f("player", a.Player), f("iterations", a.Iterations),
		f("moves", len(a.Moves)), f("top", top), f("margin", fixed(a.Position.Margin, 1)),
		f("win", fixed(a.Position.Win, 2))}, nil
}

func progressFields(rep *hunters.ReviewReport) []field {
	return []field{f("status", rep.Status), f("decisions", fmt.Sprintf("%d/%d", rep.DecisionsDone, rep.DecisionsTotal))}
}

func (r *run) requestReview(c *hunters.Client, s Step) ([]field, error) {
	rep, err := c.RequestReview(r.ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	return progressFields(rep), nil
}

func (r *run) getReview(c *hunters.Client, s Step) ([]field, error) {
	rep, err := c.GetReview(r.ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	return progressFields(rep), nil
}

func (r *run) review(c *hunters.Client, s Step) ([]field, error) {
	timeout := 120 * time.Second
	if s.TimeoutMs > 0 {
		timeout = time.Duration(s.TimeoutMs) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
	rep, err := c.WaitReview(ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	out := []field{f("status", rep.Status), f("decisions", rep.DecisionsDone)}
	if rep.Review == nil || len(rep.Review.GetWorst()) == 0 {
		for _, k := range []string{"worst", "seat", "band", "cost", "played", "best"} {
			out = append(out, f(k, nil))
		}
		return out, nil
	}
	d := rep.Review.GetDecisions()[rep.Review.GetWorst()[0]]
	band := strings.ToLower(strings.TrimPrefix(d.GetBand().String(), "MOVE_BAND_"))
	return append(out, f("worst", d.GetIndex()+1), f("seat", d.GetSeat()), f("band", band), f("cost", fixed(d.GetCost(), 1)),
		f("played", d.GetPlayed().GetAction()), f("best", d.GetBest().GetAction())), nil
}
