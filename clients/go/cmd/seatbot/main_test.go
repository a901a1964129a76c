package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"github.com/hunters-engine/hunters-engine/clients/go/internal/testserver"
)

// asProgram makes the test binary run the bot's main instead of the tests: the tests start the
// program itself, as the arena would, without a separate build.
const asProgram = "HUNTERS_SEATBOT_AS_PROGRAM"

func TestMain(m *testing.M) {
	if os.Getenv(asProgram) == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// startBot runs the bot program with args; wait gives its exit status and standard error.
func startBot(t *testing.T, args ...string) (wait func() (int, string)) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asProgram+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return func() (int, string) {
		select {
		case <-done:
			return cmd.ProcessState.ExitCode(), stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatalf("the bot did not exit after the match ended")
			return 0, ""
		}
	}
}

type played struct {
	seats  []int           // who made each move
	record json.RawMessage // the moves of the game's record
}

// playAgainstBot plays a 2-seat match of game where the bot program plays botSeat (with botSeed)
// and the test plays the other seat by polling the legal moves.
func playAgainstBot(t *testing.T, c *hunters.Client, addr, game string, seed uint64, botSeat int, botSeed int64) played {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: game, Players: 2, Seed: hunters.Seed(seed)})
	if err != nil {
		t.Fatal(err)
	}
	wait := startBot(t, addr, m.MatchID, m.SeatTokens[botSeat], fmt.Sprint(botSeat), fmt.Sprint(botSeed))
	rng := rand.New(rand.NewSource(int64(seed) + 1000))
	for {
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if len(legal.Moves) == 0 {
			break // over
		}
		if legal.Player == botSeat {
			time.Sleep(2 * time.Millisecond)
			continue
		}
		pick := legal.Moves[rng.Intn(len(legal.Moves))]
		if _, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(pick.Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version), ChangesOnly: true}); err != nil {
			t.Fatal(err)
		}
	}
	if code, stderr := wait(); code != 0 {
		t.Fatalf("the bot exited with %d: %s", code, stderr)
	}
	info, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if !hunters.IsOver(info.State) {
		t.Fatalf("the match is not over: %+v", info)
	}
	w, err := c.Watch(ctx, m.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out played
	for {
		ev, err := w.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Seat >= 0 {
			out.seats = append(out.seats, ev.Seat)
		}
		if ev.MatchOver {
			break
		}
	}
	rec, err := c.GetRecord(ctx, m.MatchID, "")
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Moves json.RawMessage }
	if err := json.Unmarshal(rec, &r); err != nil {
		t.Fatal(err)
	}
	out.record = r.Moves
	if int64(len(out.seats)) != info.Version {
		t.Fatalf("%d moves watched, version %d", len(out.seats), info.Version)
	}
	return out
}

func count(seats []int, seat int) int {
	n := 0
	for _, s := range seats {
		if s == seat {
			n++
		}
	}
	return n
}

func TestSeatBotPlaysItsSeatToTheEnd(t *testing.T) {
	addr := testserver.ForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := hunters.Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	a := playAgainstBot(t, c, addr, "carcassonne_hg", 11, 1, 5)
	if n := count(a.seats, 1); n < 20 || count(a.seats, 0) == 0 {
		t.Fatalf("the bot played %d of %d moves", n, len(a.seats))
	}
	// same game seed, bot seed and test moves: the same game, move for move; another bot seed: another
	if b := playAgainstBot(t, c, addr, "carcassonne_hg", 11, 1, 5); !reflect.DeepEqual(b.record, a.record) {
		t.Fatal("the same seeds gave another game")
	}
	if d := playAgainstBot(t, c, addr, "carcassonne_hg", 11, 1, 6); reflect.DeepEqual(d.record, a.record) {
		t.Fatal("another bot seed gave the same game")
	}
	if j := playAgainstBot(t, c, addr, "jaeger_sammler", 3, 0, 9); count(j.seats, 0) < 5 {
		t.Fatalf("the bot played %d of %d jaeger_sammler moves", count(j.seats, 0), len(j.seats))
	}
}

func TestSeatBotRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{{"127.0.0.1:1", "m"}, {"127.0.0.1:1", "m", "t", "x"}, {"127.0.0.1:1", "m", "t", "0", "s"}} {
		code, stderr := startBot(t, args...)()
		if code != 2 || !strings.Contains(stderr, "usage: seatbot") {
			t.Fatalf("%v: status %d, %q", args, code, stderr)
		}
	}
}
