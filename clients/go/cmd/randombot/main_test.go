package main

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"github.com/hunters-engine/hunters-engine/clients/go/internal/testserver"
)

func TestRandomBotPlaysBothGames(t *testing.T) {
	addr := testserver.ForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := hunters.Dial(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, game := range []string{"carcassonne_hg", "jaeger_sammler"} {
		r, err := PlayRandomGame(ctx, c, game, 2, 9, rand.New(rand.NewSource(9)))
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		m, err := c.GetMatch(ctx, r.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if !hunters.IsOver(m.State) || m.Version != r.Moves || len(r.Scores) != 2 || len(r.Winners) == 0 {
			t.Fatalf("%s: unfinished or inconsistent: %+v, match version %d", game, r, m.Version)
		}
	}
}
