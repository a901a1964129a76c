// Command seatbot is an external bot: it plays one seat of an existing match with uniformly random
// legal moves (seeded) until the match is over, then exits 0. This is the program `hunters arena`
// starts for a `cmd:` bot:
//
//	seatbot ADDRESS MATCH TOKEN SEAT [SEED]
//	hunters arena --bot "cmd:clients/go/.gopath/bin/seatbot {address} {match} {token} {seat}" --bot random
//
// It watches the match; at each version where the state says its seat is to move, it lists the
// legal moves and plays one with its seat token and the expected version (an event older than the
// match is skipped: the match's later versions follow on the stream).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strconv"
	"time"

	"github.com/hunters/hunters/clients/go/hunters"
)

// callTimeout bounds each unary call (the watch stream lives as long as the match).
const callTimeout = 30 * time.Second

// PlaySeat plays seat of the match until it is over; it returns the moves this seat played.
func PlaySeat(ctx context.Context, c *hunters.Client, matchID, token string, seat int, rng *rand.Rand) (int, error) {
	w, err := c.Watch(ctx, matchID, 0)
	if err != nil {
		return 0, err
	}
	played := 0
	for {
		ev, err := w.Recv()
		if err == io.EOF {
			return played, errors.New("the match stream ended before the match was over")
		}
		if err != nil {
			return played, err
		}
		if ev.MatchOver {
			return played, nil
		}
		if int(ev.State.GetPlayer()) != seat {
			continue
		}
		if err := playOnce(ctx, c, matchID, token, seat, ev.Version, rng, &played); err != nil {
			return played, err
		}
	}
}

// playOnce plays a random legal move if the match is still at version with seat to move.
func playOnce(ctx context.Context, c *hunters.Client, matchID, token string, seat int, version int64, rng *rand.Rand, played *int) error {
	call, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	legal, err := c.LegalMoves(call, matchID)
	if err != nil {
		return err
	}
	if legal.Version != version || legal.Player != seat {
		return nil // a stale event: the later versions follow on the stream
	}
	if len(legal.Moves) == 0 {
		return fmt.Errorf("no legal move at version %d", legal.Version)
	}
	pick := legal.Moves[rng.Intn(len(legal.Moves))]
	_, err = c.Play(call, matchID, token, hunters.ByAction(pick.Action),
		&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version)})
	if hunters.ReasonOf(err) == "STALE_VERSION" {
		return nil
	}
	if err == nil {
		*played++
	}
	return err
}

const usage = "usage: seatbot ADDRESS MATCH TOKEN SEAT [SEED]  (SEAT, SEED: integers)"

// run is the program: its exit status (0: the match is over; 1: an error; 2: bad arguments).
func run(args []string) int {
	if len(args) < 4 || len(args) > 5 {
		fmt.Fprintln(os.Stderr, usage)
		return 2
	}
	seat, err := strconv.Atoi(args[3])
	seed := int64(0)
	if err == nil && len(args) == 5 {
		seed, err = strconv.ParseInt(args[4], 10, 64)
	}
	if err != nil || seat < 0 {
		fmt.Fprintln(os.Stderr, usage)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dial, dialCancel := context.WithTimeout(ctx, callTimeout)
	defer dialCancel()
	c, err := hunters.Dial(dial, args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	if _, err := PlaySeat(ctx, c, args[1], args[2], seat, rand.New(rand.NewSource(seed))); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func main() { os.Exit(run(os.Args[1:])) }
