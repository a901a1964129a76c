// Command seatbot is an external bot: it plays one seat of an existing match with uniformly random
// legal moves (seeded) until the match is over, then exits 0. This is the program `hunters arena`
// starts for a `cmd:` bot:
//
//	seatbot ADDRESS MATCH TOKEN SEAT [SEED]
//	hunters arena --bot "cmd:clients/go/.gopath/bin/seatbot {address} {match} {token} {seat}" --bot random
//
// It plays on its seat stream (Client.PlaySeat: one PlaySeat stream): the server offers each turn
// with the legal moves and their action codes, and the bot answers with one code.
package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

// callTimeout bounds the dial (the seat stream lives as long as the match).
const callTimeout = 30 * time.Second

// PlaySeat plays the token's seat of the match until it is over; it returns the moves this seat played.
func PlaySeat(ctx context.Context, c *hunters.Client, matchID, token string, seat int, rng *rand.Rand) (int, error) {
	played := 0
	choose := func(turn *hunters.Turn) (hunters.Play, error) {
		if turn.Seat != seat {
			return hunters.Play{}, fmt.Errorf("the token is seat %d, not %d", turn.Seat, seat)
		}
		if len(turn.Moves) == 0 {
			return hunters.Play{}, fmt.Errorf("no legal move at version %d", turn.Version)
		}
		played++
		return hunters.ByAction(turn.Moves[rng.Intn(len(turn.Moves))].Action), nil
	}
	last, err := c.PlaySeat(ctx, matchID, token, choose, nil)
	if err == nil && (last == nil || !last.MatchOver) {
		err = errors.New("the match stream ended before the match was over")
	}
	return played, err
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
