// Command randombot creates a match and plays every seat with uniformly random legal moves until
// the game is over, then prints the scores.
//
//	randombot -addr 127.0.0.1:50051 -game jaeger_sammler -players 3 -seed 7
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

// Result is the end of a random game.
type Result struct {
	MatchID string
	Moves   int64
	Scores  []int32
	Winners []int32
}

// PlayRandomGame plays one whole game; rng picks the moves.
func PlayRandomGame(ctx context.Context, c *hunters.Client, game string, players int, seed uint64, rng *rand.Rand) (*Result, error) {
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: game, Players: players, Seed: hunters.Seed(seed)})
	if err != nil {
		return nil, err
	}
	state := m.State
	for !hunters.IsOver(state) {
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			return nil, err
		}
		if len(legal.Moves) == 0 {
			return nil, fmt.Errorf("no legal move at version %d", legal.Version)
		}
		pick := legal.Moves[rng.Intn(len(legal.Moves))]
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(pick.Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version), ChangesOnly: true})
		if err != nil {
			return nil, err
		}
		state = r.State // version, scores, winners: no board needed
	}
	return &Result{MatchID: m.MatchID, Moves: state.GetVersion(), Scores: state.GetScores(), Winners: state.GetWinners()}, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "server address")
	game := flag.String("game", "carcassonne_hg", "carcassonne_hg or jaeger_sammler")
	players := flag.Int("players", 2, "seats")
	seed := flag.Uint64("seed", 1, "game seed (the bot's moves are seeded with it too)")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := hunters.Dial(ctx, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer c.Close()
	start := time.Now()
	r, err := PlayRandomGame(ctx, c, *game, *players, *seed, rand.New(rand.NewSource(int64(*seed))))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s match %s: %d moves in %d ms; scores %v; winners %v\n", *game, r.MatchID, r.Moves,
		time.Since(start).Milliseconds(), r.Scores, r.Winners)
}
