package hunters_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"github.com/hunters-engine/hunters-engine/clients/go/internal/testserver"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var addr string

var minusOne = int32(-1)

func TestMain(m *testing.M) {
	a, stop, err := testserver.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	addr = a
	code := m.Run()
	stop()
	os.Exit(code)
}

func dial(t *testing.T, opts ...grpc.DialOption) (*hunters.Client, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c, err := hunters.Dial(ctx, addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, ctx
}

func newMatch(t *testing.T, c *hunters.Client, ctx context.Context, game string, seed uint64) *hunters.CreatedMatch {
	t.Helper()
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: game, Players: 2, Seed: hunters.Seed(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// refused checks that err is an *Error of this code and reason, and returns it.
func refused(t *testing.T, err error, code codes.Code, reason string) *hunters.Error {
	t.Helper()
	var e *hunters.Error
	if !errors.As(err, &e) {
		t.Fatalf("want %s %s, got %v", code, reason, err)
	}
	if e.Code != code || e.Reason != reason || e.Domain != "hunters.v1" {
		t.Fatalf("want %s %s (hunters.v1), got %v (domain %q)", code, reason, e, e.Domain)
	}
	if status.Code(err) != code || hunters.ReasonOf(err) != reason {
		t.Fatalf("status.Code / ReasonOf disagree with %v", e)
	}
	return e
}

// playOut plays a whole game with random legal moves, alternately structured and as action codes.
func playOut(t *testing.T, game string, players int, seed uint64) []*hunters.Move {
	c, ctx := dial(t)
	rng := rand.New(rand.NewSource(int64(seed)))
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: game, Players: players, Seed: hunters.Seed(seed)})
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != 0 || m.Game != game || len(m.SeatTokens) != players {
		t.Fatalf("new match: %+v", m.MatchInfo)
	}
	var moves []*hunters.Move
	state := m.State
	for !hunters.IsOver(state) {
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if legal.Version != int64(len(moves)) || legal.Player != int(state.GetPlayer()) || len(legal.Moves) == 0 {
			t.Fatalf("legal moves at %d: version %d player %d (state: %d), %d moves",
				len(moves), legal.Version, legal.Player, state.GetPlayer(), len(legal.Moves))
		}
		pick := legal.Moves[rng.Intn(len(legal.Moves))]
		play := hunters.ByAction(pick.Action)
		if len(moves)%2 == 0 {
			play = hunters.ByMove(pick.Move)
		}
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], play,
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Version != int64(len(moves))+1 || r.State.GetVersion() != r.Version {
			t.Fatalf("play %d: version %d, state version %d", len(moves), r.Version, r.State.GetVersion())
		}
		moves = append(moves, pick.Move)
		state = r.State
	}
	scores := state.GetScores()
	best := scores[0]
	for _, s := range scores {
		if s > best {
			best = s
		}
	}
	if len(scores) != players || len(state.GetWinners()) == 0 {
		t.Fatalf("final: scores %v winners %v", scores, state.GetWinners())
	}
	for _, w := range state.GetWinners() {
		if scores[w] != best {
			t.Fatalf("winner %d has %d, best is %d", w, scores[w], best)
		}
	}
	legal, err := c.LegalMoves(ctx, m.MatchID)
	if err != nil || len(legal.Moves) != 0 {
		t.Fatalf("legal moves once over: %v, %v", legal, err)
	}
	final, err := c.GetMatch(ctx, m.MatchID)
	if err != nil || final.Status != pb.MatchStatus_MATCH_STATUS_OVER || final.Version != int64(len(moves)) ||
		!reflect.DeepEqual(final.State.GetScores(), scores) {
		t.Fatalf("final match: %+v, %v", final, err)
	}
	// the oracle replays the same game from the seed and the moves
	ev, err := c.Evaluate(ctx, hunters.GameConfig{Game: game, Players: players, Seed: hunters.Seed(seed)}, moves, false)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.Legal || !hunters.IsOver(ev.State) || !reflect.DeepEqual(ev.State.GetScores(), scores) {
		t.Fatalf("replay: legal %v over %v scores %v, want %v", ev.Legal, hunters.IsOver(ev.State), ev.State.GetScores(), scores)
	}
	// a finished match's record needs no token
	raw, err := c.GetRecord(ctx, m.MatchID, "")
	if err != nil {
		t.Fatal(err)
	}
	var record struct{ Moves []json.RawMessage }
	if err := json.Unmarshal(raw, &record); err != nil || len(record.Moves) != len(moves) {
		t.Fatalf("record: %d moves (%v), want %d", len(record.Moves), err, len(moves))
	}
	return moves
}

func TestCompleteGames(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
		seed    uint64
	}{{"carcassonne_hg", 2, 11}, {"carcassonne_hg", 3, 12}, {"jaeger_sammler", 2, 21}, {"jaeger_sammler", 4, 22}} {
		t.Run(fmt.Sprintf("%s/%d", tc.game, tc.players), func(t *testing.T) {
			moves := playOut(t, tc.game, tc.players, tc.seed)
			for _, m := range moves {
				if (tc.game == "carcassonne_hg") != (m.GetCarcassonne() != nil) {
					t.Fatalf("a move of the wrong game: %v", m)
				}
			}
		})
	}
}

func TestWatch(t *testing.T) {
	c, ctx := dial(t)
	m := newMatch(t, c, ctx, "jaeger_sammler", 5)
	w, err := c.Watch(ctx, m.MatchID, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan []*hunters.MatchEvent, 1)
	go func() {
		var out []*hunters.MatchEvent
		for {
			e, err := w.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Error(err)
				break
			}
			out = append(out, e)
		}
		seen <- out
	}()
	rng := rand.New(rand.NewSource(5))
	var version int64
	for over := false; !over; {
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(legal.Moves[rng.Intn(len(legal.Moves))].Action), nil)
		if err != nil {
			t.Fatal(err)
		}
		over, version = hunters.IsOver(r.State), r.Version
	}
	events := <-seen // the stream ends by itself once the match is over
	if int64(len(events)) != version+1 {
		t.Fatalf("%d events for %d versions", len(events), version+1)
	}
	for i, e := range events {
		if e.Version != int64(i) || e.MatchID != m.MatchID || e.MatchOver != (int64(i) == version) ||
			(i == 0) != (e.Move == nil) || (i == 0) != (e.Seat == -1) {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	final, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(events[len(events)-1].State.GetScores(), final.State.GetScores()) {
		t.Fatal("the last watched state is not the match's")
	}
	// from a version on, of a finished match: just the later versions
	w, err = c.Watch(ctx, m.MatchID, version-1)
	if err != nil {
		t.Fatal(err)
	}
	var late []int64
	for {
		e, err := w.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		late = append(late, e.Version)
	}
	if !reflect.DeepEqual(late, []int64{version - 1, version}) {
		t.Fatalf("from version %d: %v", version-1, late)
	}
}

func TestErrors(t *testing.T) {
	c, ctx := dial(t)

	t.Run("not found", func(t *testing.T) {
		_, err := c.GetMatch(ctx, "no-such-match")
		e := refused(t, err, codes.NotFound, "MATCH_NOT_FOUND")
		if e.Metadata["match_id"] != "no-such-match" {
			t.Fatalf("metadata %v", e.Metadata)
		}
	})

	t.Run("tokens", func(t *testing.T) {
		m := newMatch(t, c, ctx, "carcassonne_hg", 1)
		other := newMatch(t, c, ctx, "carcassonne_hg", 1)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		play := hunters.ByAction(legal.Moves[0].Action)
		_, err := c.Play(ctx, m.MatchID, "not-a-token", play, nil)
		if e := refused(t, err, codes.PermissionDenied, "INVALID_TOKEN"); e.Metadata["match_id"] != m.MatchID {
			t.Fatalf("metadata %v", e.Metadata)
		}
		_, err = c.Play(ctx, m.MatchID, other.SeatTokens[0], play, nil)
		refused(t, err, codes.PermissionDenied, "INVALID_TOKEN")
		_, err = c.Play(ctx, m.MatchID, "", play, nil)
		refused(t, err, codes.Unauthenticated, "MISSING_TOKEN")
		_, err = c.GetRecord(ctx, m.MatchID, m.SeatTokens[0])
		refused(t, err, codes.PermissionDenied, "ADMIN_TOKEN_REQUIRED")
		if _, err := c.GetRecord(ctx, m.MatchID, m.AdminToken); err != nil {
			t.Fatal(err)
		}
		if got, _ := c.GetMatch(ctx, m.MatchID); got.Version != 0 {
			t.Fatal("a refusal changed the match")
		}
	})

	t.Run("not your turn", func(t *testing.T) {
		m := newMatch(t, c, ctx, "jaeger_sammler", 2)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		_, err := c.Play(ctx, m.MatchID, m.SeatTokens[1-legal.Player], hunters.ByMove(legal.Moves[0].Move), nil)
		if e := refused(t, err, codes.FailedPrecondition, "NOT_YOUR_TURN"); e.Metadata["player"] != fmt.Sprint(legal.Player) {
			t.Fatalf("metadata %v", e.Metadata)
		}
	})

	t.Run("stale version", func(t *testing.T) {
		m := newMatch(t, c, ctx, "carcassonne_hg", 3)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		_, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(4)})
		if e := refused(t, err, codes.Aborted, "STALE_VERSION"); e.Metadata["current_version"] != "0" {
			t.Fatalf("metadata %v", e.Metadata)
		}
	})

	t.Run("illegal moves", func(t *testing.T) {
		m := newMatch(t, c, ctx, "carcassonne_hg", 4)
		_, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByMove(hunters.CarcassonneMove(50, 50, 0, nil, nil)), nil)
		e := refused(t, err, codes.FailedPrecondition, "NOT_ADJACENT")
		if !reflect.DeepEqual(e.Metadata, map[string]string{"match_id": m.MatchID, "version": "0"}) {
			t.Fatalf("metadata %v", e.Metadata)
		}
		_, err = c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(-1), nil)
		refused(t, err, codes.InvalidArgument, "MALFORMED")
		_, err = c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByMove(hunters.JaegerMove(hunters.Step{Src: 1})), nil)
		refused(t, err, codes.InvalidArgument, "WRONG_GAME")

		j := newMatch(t, c, ctx, "jaeger_sammler", 4)
		legal, _ := c.LegalMoves(ctx, j.MatchID)
		step := hunters.JaegerSteps(legal.Moves[0].Move)[0]
		src := step.Src
		// a step from the space the legal step goes to, where no character of the mover stands yet
		_, err = c.Play(ctx, j.MatchID, j.SeatTokens[legal.Player],
			hunters.ByMove(hunters.JaegerMove(hunters.Step{Src: *step.Dst, Dst: &src}, step)), nil)
		refused(t, err, codes.FailedPrecondition, "NOT_YOUR_CHARACTER")
		if got, _ := c.GetMatch(ctx, m.MatchID); got.Version != 0 {
			t.Fatal("a refusal changed the match")
		}
	})

	t.Run("configurations", func(t *testing.T) {
		_, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "chess", Players: 2})
		refused(t, err, codes.InvalidArgument, "UNKNOWN_GAME")
		_, err = c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 9})
		refused(t, err, codes.InvalidArgument, "INVALID_CONFIG")
		// options of the other game, a menhir tile in the normal pile, a tile twice, values out of range
		for i, cfg := range []hunters.GameConfig{
			{Game: "carcassonne_hg", Players: 2, Jaeger: &hunters.JaegerOptions{}},
			{Game: "carcassonne_hg", Players: 2, Carcassonne: &hunters.CarcassonneOptions{NormalDeck: hunters.Deck(88)}},
			{Game: "carcassonne_hg", Players: 2, Carcassonne: &hunters.CarcassonneOptions{NormalDeck: hunters.Deck(3, 3)}},
			{Game: "jaeger_sammler", Players: 2, Jaeger: &hunters.JaegerOptions{StallRounds: &minusOne}},
			{Game: "jaeger_sammler", Players: 2, Jaeger: &hunters.JaegerOptions{MammothsSummer: []int32{99}}},
		} {
			_, err := c.CreateMatch(ctx, cfg)
			if e := refused(t, err, codes.InvalidArgument, "INVALID_CONFIG"); e.Message == "" {
				t.Fatalf("config %d: no message", i)
			}
		}
		_, err = c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2,
			Carcassonne: &hunters.CarcassonneOptions{}, Jaeger: &hunters.JaegerOptions{}})
		var e *hunters.Error
		if err == nil || errors.As(err, &e) {
			t.Fatalf("two games' options: want a local error, got %v", err)
		}
	})

	t.Run("typed options are applied", func(t *testing.T) {
		m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(4),
			Carcassonne: &hunters.CarcassonneOptions{NormalDeck: hunters.Deck(3, 17, 5)}})
		if err != nil {
			t.Fatal(err)
		}
		view := m.State.GetCarcassonne()
		if view.GetTile() != 3 || view.GetNormalPile() != 2 {
			t.Fatalf("explicit pile: tile %d, %d left", view.GetTile(), view.GetNormalPile())
		}
	})

	t.Run("operator token", func(t *testing.T) {
		guarded := testserver.ForTest(t, "HUNTERS_CREATE_TOKEN=operator-secret")
		g, err := hunters.Dial(ctx, guarded)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		cfg := hunters.GameConfig{Game: "jaeger_sammler", Players: 2, Seed: hunters.Seed(1)}
		_, err = g.CreateMatch(ctx, cfg)
		refused(t, err, codes.Unauthenticated, "MISSING_TOKEN")
		_, err = g.WithCreateToken("guess").CreateMatch(ctx, cfg)
		refused(t, err, codes.PermissionDenied, "CREATE_TOKEN_REQUIRED")
		m, err := g.WithCreateToken("operator-secret").CreateMatch(ctx, cfg)
		if err != nil || len(m.SeatTokens) != 2 {
			t.Fatalf("%v, %v", m, err)
		}
	})
}

// losingReplies lets PlayMove calls reach the server and drops the first `lose` replies.
func losingReplies(lose int, requestIDs *[]string) grpc.DialOption {
	return losingRepliesOf("PlayMove", lose, requestIDs)
}

// losingRepliesOf lets calls of method reach the server and drops the first `lose` replies; each
// call adds its request id ("" for a request without one) to requestIDs.
func losingRepliesOf(rpc string, lose int, requestIDs *[]string) grpc.DialOption {
	return grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply interface{},
		cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if method != "/hunters.v1.MatchService/"+rpc {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		id := ""
		if r, ok := req.(interface{ GetRequestId() string }); ok {
			id = r.GetRequestId()
		}
		*requestIDs = append(*requestIDs, id)
		err := invoker(ctx, method, req, reply, cc, opts...)
		if err == nil && len(*requestIDs) <= lose {
			return status.Error(codes.Unavailable, "reply lost")
		}
		return err
	})
}

func TestRetries(t *testing.T) {
	t.Run("a repeated request id returns the first result", func(t *testing.T) {
		c, ctx := dial(t)
		m := newMatch(t, c, ctx, "carcassonne_hg", 6)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		opts := &hunters.PlayOptions{RequestID: "r-1"}
		first, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action), opts)
		if err != nil {
			t.Fatal(err)
		}
		again, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action), opts)
		if err != nil || first.Version != 1 || again.Version != 1 {
			t.Fatalf("versions %d, %d (%v)", first.Version, again.Version, err)
		}
		if got, _ := c.GetMatch(ctx, m.MatchID); got.Version != 1 {
			t.Fatalf("version %d after a repeated request", got.Version)
		}
		_, err = c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[1].Action), opts)
		if e := refused(t, err, codes.InvalidArgument, "REQUEST_ID_REUSED"); e.Metadata["request_id"] != "r-1" {
			t.Fatalf("metadata %v", e.Metadata)
		}
	})

	t.Run("a lost reply is retried and the move applied once", func(t *testing.T) {
		var ids []string
		c, ctx := dial(t, losingReplies(2, &ids))
		m := newMatch(t, c, ctx, "jaeger_sammler", 6)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(legal.Moves[0].Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(0)})
		if err != nil || r.Version != 1 {
			t.Fatalf("%v, %v", r, err)
		}
		if len(ids) != 3 || ids[0] == "" || ids[0] != ids[1] || ids[1] != ids[2] {
			t.Fatalf("request ids of the tries: %q", ids)
		}
		if got, _ := c.GetMatch(ctx, m.MatchID); got.Version != 1 {
			t.Fatalf("version %d", got.Version)
		}
	})

	t.Run("gives up after its attempts; refusals are not retried", func(t *testing.T) {
		var ids []string
		c, ctx := dial(t, losingReplies(5, &ids))
		m := newMatch(t, c, ctx, "carcassonne_hg", 7)
		legal, _ := c.LegalMoves(ctx, m.MatchID)
		_, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action), &hunters.PlayOptions{Attempts: 2})
		var e *hunters.Error
		if !errors.As(err, &e) || e.Code != codes.Unavailable || e.Reason != "UNAVAILABLE" ||
			e.Error() != "UNAVAILABLE UNAVAILABLE: reply lost" || len(ids) != 2 {
			t.Fatalf("%v after %d tries", err, len(ids))
		}
		if got, _ := c.GetMatch(ctx, m.MatchID); got.Version != 1 {
			t.Fatalf("version %d: the move must be applied once", got.Version)
		}
		ids = nil
		_, err = c.Play(ctx, m.MatchID, m.SeatTokens[1], hunters.ByAction(legal.Moves[0].Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(0)})
		refused(t, err, codes.Aborted, "STALE_VERSION")
		if len(ids) != 1 {
			t.Fatalf("a refusal was tried %d times", len(ids))
		}
	})
}

func TestDeleteAndNoServer(t *testing.T) {
	t.Run("a delete whose reply was lost is retried; the retry's MATCH_NOT_FOUND means done", func(t *testing.T) {
		var tries []string
		c, ctx := dial(t, losingRepliesOf("DeleteMatch", 1, &tries))
		m := newMatch(t, c, ctx, "carcassonne_hg", 3)
		if err := c.DeleteMatch(ctx, m.MatchID, m.AdminToken); err != nil || len(tries) != 2 {
			t.Fatalf("%v after %d tries", err, len(tries))
		}
		_, err := c.GetMatch(ctx, m.MatchID)
		refused(t, err, codes.NotFound, "MATCH_NOT_FOUND")
		tries = nil
		refused(t, c.DeleteMatch(ctx, m.MatchID, m.AdminToken), codes.NotFound, "MATCH_NOT_FOUND")
		if len(tries) != 1 {
			t.Fatalf("a refusal was tried %d times", len(tries))
		}
	})

	t.Run("no server: UNAVAILABLE with the code's name as reason; a move is tried Attempts times", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		var methods []string
		count := grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply interface{},
			cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			methods = append(methods, method[strings.LastIndex(method, "/")+1:])
			return invoker(ctx, method, req, reply, cc, opts...)
		})
		ctx := context.Background()
		c, err := hunters.Dial(ctx, addr, count)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.GetMatch(ctx, "m")
		var e *hunters.Error
		if !errors.As(err, &e) || e.Code != codes.Unavailable || e.Reason != "UNAVAILABLE" ||
			!strings.HasPrefix(e.Error(), "UNAVAILABLE UNAVAILABLE: ") {
			t.Fatalf("%v", err)
		}
		if _, err = c.Play(ctx, "m", "t", hunters.ByAction(0), nil); hunters.ReasonOf(err) != "UNAVAILABLE" {
			t.Fatalf("%v", err)
		}
		if strings.Join(methods, ",") != "GetMatch,PlayMove,PlayMove,PlayMove" {
			t.Fatalf("calls %v", methods)
		}
	})
}

func TestOracle(t *testing.T) {
	c, ctx := dial(t)
	cfg := hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(3)}
	start, err := c.Evaluate(ctx, cfg, nil, true)
	if err != nil || !start.Legal || len(start.LegalMoves) == 0 {
		t.Fatalf("%+v, %v", start, err)
	}
	bad := hunters.CarcassonneMove(50, 50, 0, nil, nil)
	r, err := c.Evaluate(ctx, cfg, []*hunters.Move{start.LegalMoves[0].Move, bad}, false)
	if err != nil || r.Legal || r.Illegal == nil || r.Illegal.Index != 1 || r.Illegal.Reason != "NOT_ADJACENT" || r.State.GetVersion() != 1 {
		t.Fatalf("%+v, %v", r, err)
	}
	_, err = c.Evaluate(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2}, nil, false)
	refused(t, err, codes.InvalidArgument, "INVALID_CONFIG")

	sim, err := c.Simulate(ctx, hunters.SimulationRequest{Game: "jaeger_sammler", Players: 3, Games: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var last *hunters.SimulationProgress
	for {
		p, err := sim.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if last != nil && p.GamesDone <= last.GamesDone {
			t.Fatalf("progress went from %d to %d", last.GamesDone, p.GamesDone)
		}
		last = p
	}
	if last == nil {
		t.Fatal("no progress")
	}
	var wins int64
	for _, w := range last.Wins {
		wins += w
	}
	if !last.Done || last.GamesDone != 30 || len(last.MeanScores) != 3 || wins < 30 {
		t.Fatalf("last progress %+v", last)
	}
	badSim, err := c.Simulate(ctx, hunters.SimulationRequest{Game: "jaeger_sammler", Players: 2, Games: 0})
	if err == nil { // a stream's refusal arrives with its first Recv
		_, err = badSim.Recv()
	}
	refused(t, err, codes.InvalidArgument, "BAD_GAMES")
}

func TestPerftAndConformanceVectors(t *testing.T) {
	c, ctx := dial(t)
	seed := uint64(1)
	count, err := c.Perft(ctx, hunters.PerftRequest{
		Config: hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: &seed}, Depth: 2, Divide: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []*pb.PerftResponse
	for {
		line, err := count.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	// 15 first moves, then the total: the engine contract's count of this position
	if len(lines) != 16 || !lines[15].GetDone() || lines[15].GetCount() != 656 {
		t.Fatalf("perft lines %v", lines)
	}
	files, err := c.ConformanceVectors(ctx, "carcassonne_hg")
	if err != nil || len(files) != 2 {
		t.Fatalf("%v, %v", files, err)
	}
	text, err := c.ConformanceVectorFile(ctx, "carcassonne_hg", "perft.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	var first struct{ Counts []int64 }
	if err := json.Unmarshal([]byte(text[:strings.Index(text, "\n")]), &first); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.Counts, []int64{1, 15, 656, 54604}) {
		t.Fatalf("first vector's counts %v", first.Counts)
	}
}
