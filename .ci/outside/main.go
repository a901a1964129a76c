// A module outside the repository using the Go client through clients/go/scripts/use-from.sh: one
// complete game of each game against `hunters serve`, one seat played by the server's own bot.
// Prints one JSON line per game; exits non-zero on anything unexpected.
//
//	go.sh run . ADDRESS
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

func playAgainstBot(ctx context.Context, c *hunters.Client, cfg hunters.GameConfig, me, botSeat int) (map[string]any, error) {
	m, err := c.CreateMatch(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(m.Bots, cfg.Bots) {
		return nil, fmt.Errorf("bot seats %v", m.Bots)
	}
	version, mine, random := int64(0), int64(0), uint32(12345)
	for {
		turn, err := c.WaitTurn(ctx, m.MatchID, me, version)
		if err != nil {
			return nil, fmt.Errorf("waiting for my turn: %w", err)
		}
		if turn.MatchOver {
			break
		}
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			return nil, err
		}
		if legal.Player != me || legal.Version != turn.Version || len(legal.Moves) == 0 {
			return nil, fmt.Errorf("seat %d at %d after waiting for seat %d at %d", legal.Player, legal.Version, me, turn.Version)
		}
		random = random*1664525 + 1013904223
		pick := legal.Moves[int(random%uint32(len(legal.Moves)))]
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[me], hunters.ByAction(pick.Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version)})
		if err != nil {
			return nil, err
		}
		mine++
		version = r.Version
		if r.IsOver {
			if len(r.Winners) == 0 {
				return nil, fmt.Errorf("no winner at the end")
			}
			break
		}
	}
	end, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		return nil, err
	}
	if end.Status != pb.MatchStatus_MATCH_STATUS_OVER || !hunters.IsOver(end.State) || end.CreatedAt.IsZero() {
		return nil, fmt.Errorf("not over: %v", end.Status)
	}
	bySeat := map[int]int64{}
	w, err := c.Watch(ctx, m.MatchID, 0)
	if err != nil {
		return nil, err
	}
	for {
		ev, err := w.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if ev.Seat >= 0 {
			bySeat[ev.Seat]++
		}
	}
	if bySeat[me] != mine || bySeat[botSeat] == 0 || mine+bySeat[botSeat] != end.Version {
		return nil, fmt.Errorf("moves by seat %v, mine %d, in all %d", bySeat, mine, end.Version)
	}
	raw, err := c.GetRecord(ctx, m.MatchID, "")
	if err != nil {
		return nil, err
	}
	var record struct{ Moves []json.RawMessage }
	if err := json.Unmarshal(raw, &record); err != nil || int64(len(record.Moves)) != end.Version {
		return nil, fmt.Errorf("the record: %v, %d moves", err, len(record.Moves))
	}
	return map[string]any{"client": "go", "game": cfg.Game, "match": m.MatchID, "moves": end.Version,
		"bot_moves": bySeat[botSeat], "scores": end.State.GetScores(), "winners": end.State.GetWinners()}, nil
}

func run(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := hunters.Dial(ctx, addr)
	if err != nil {
		return err
	}
	defer c.Close()
	games, err := c.ListGames(ctx)
	if err != nil {
		return err
	}
	var ids []string
	for _, g := range games {
		ids = append(ids, g.GetGame())
	}
	sort.Strings(ids)
	if !reflect.DeepEqual(ids, []string{"carcassonne_hg", "jaeger_sammler"}) {
		return fmt.Errorf("games %v", ids)
	}
	for _, g := range []struct {
		cfg         hunters.GameConfig
		me, botSeat int
	}{
		{hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(7), Bots: map[int]string{1: "greedy"}}, 0, 1},
		{hunters.GameConfig{Game: "jaeger_sammler", Players: 2, Seed: hunters.Seed(7), Bots: map[int]string{0: "random"}}, 1, 0},
	} {
		out, err := playAgainstBot(ctx, c, g.cfg, g.me, g.botSeat)
		if err != nil {
			return fmt.Errorf("%s: %w", g.cfg.Game, err)
		}
		line, _ := json.Marshal(out)
		fmt.Println(string(line))
	}
	return nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: play ADDRESS")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "play:", err)
		os.Exit(1)
	}
}
