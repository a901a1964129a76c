// Command seatbench measures the moves per second of one match played by two bots on loopback:
// each bot on its seat stream (Client.PlaySeat), against each bot following WatchMatch and calling
// LegalMoves then Play at its turns (the loop before seat streams). Both sides play the same games
// (same seeds, the middle legal move), alternating, and it prints the medians and their ratio.
//
//	seatbench -addr 127.0.0.1:50051 -games 10
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

func middle(moves []hunters.LegalMove) int64 { return moves[len(moves)/2].Action }

func streamBot(ctx context.Context, c *hunters.Client, matchID, token string) error {
	_, err := c.PlaySeat(ctx, matchID, token, func(t *hunters.Turn) (hunters.Play, error) {
		return hunters.ByAction(middle(t.Moves)), nil
	}, nil)
	return err
}

func watchBot(ctx context.Context, c *hunters.Client, matchID, token string, seat int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := c.Watch(ctx, matchID, 0)
	if err != nil {
		return err
	}
	for {
		ev, err := w.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if ev.MatchOver {
			return nil
		}
		if int(ev.State.GetPlayer()) != seat {
			continue
		}
		legal, err := c.LegalMoves(ctx, matchID)
		if err != nil {
			return err
		}
		if legal.Version != ev.Version || legal.Player != seat {
			continue // an old event: the later ones follow
		}
		if _, err := c.Play(ctx, matchID, token, hunters.ByAction(middle(legal.Moves)),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version), ChangesOnly: true}); err != nil {
			return err
		}
	}
}

// game plays one match with a bot per seat (each with its own connection); moves per second.
func game(ctx context.Context, addr string, seed uint64, stream bool) (float64, int64, error) {
	c, err := hunters.Dial(ctx, addr)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(seed)})
	if err != nil {
		return 0, 0, err
	}
	bots := make([]*hunters.Client, 2)
	for s := range bots {
		if bots[s], err = hunters.Dial(ctx, addr); err != nil {
			return 0, 0, err
		}
		defer bots[s].Close()
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	start := time.Now()
	for s := 0; s < 2; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			if stream {
				errs[s] = streamBot(ctx, bots[s], m.MatchID, m.SeatTokens[s])
			} else {
				errs[s] = watchBot(ctx, bots[s], m.MatchID, m.SeatTokens[s], s)
			}
		}(s)
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	for _, e := range errs {
		if e != nil {
			return 0, 0, e
		}
	}
	info, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		return 0, 0, err
	}
	return float64(info.Version) / elapsed, info.Version, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "server address")
	games := flag.Int("games", 10, "games per side")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rates := map[bool][]float64{}
	for g := 0; g < *games; g++ {
		for _, stream := range []bool{g%2 == 0, g%2 != 0} {
			r, _, err := game(ctx, *addr, uint64(500+g), stream)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			rates[stream] = append(rates[stream], r)
		}
	}
	s, w := median(rates[true]), median(rates[false])
	fmt.Printf("go: stream %.0f moves/s, watch+unary %.0f moves/s, ratio %.2f\n", s, w, s/w)
}
