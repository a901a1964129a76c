package hunters_test

import (
	"io"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1" // also registers the contract's descriptors
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Every RPC of every service of hunters.v1 (the generated descriptors) has a facade method.
func TestFacadeCoversContract(t *testing.T) {
	var rpcs, services []string
	protoregistry.GlobalFiles.RangeFilesByPackage("hunters.v1", func(f protoreflect.FileDescriptor) bool {
		for i := 0; i < f.Services().Len(); i++ {
			s := f.Services().Get(i)
			services = append(services, string(s.FullName()))
			for j := 0; j < s.Methods().Len(); j++ {
				rpcs = append(rpcs, string(s.FullName())+"."+string(s.Methods().Get(j).Name()))
			}
		}
		return true
	})
	sort.Strings(services)
	if want := []string{"hunters.v1.GameService", "hunters.v1.MatchService", "hunters.v1.OracleService"}; !reflect.DeepEqual(services, want) {
		t.Fatalf("services %v, want %v", services, want)
	}
	client := reflect.TypeOf(&hunters.Client{})
	for _, rpc := range rpcs {
		name, ok := hunters.RPCMethods[rpc]
		if _, has := client.MethodByName(name); !ok || !has {
			t.Errorf("the RPC %s has no facade method (add it to RPCMethods and Client)", rpc)
		}
	}
	if len(hunters.RPCMethods) != len(rpcs) {
		t.Errorf("RPCMethods names %d methods, the contract has %d RPCs", len(hunters.RPCMethods), len(rpcs))
	}
}

func TestBotSeatsAndResult(t *testing.T) {
	c, ctx := dial(t)
	m, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "jaeger_sammler", Players: 2, Seed: hunters.Seed(5),
		Bots: map[int]string{1: "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Bots, map[int]string{1: "random"}) || m.Seed != nil {
		t.Fatalf("bots %v seed %v", m.Bots, m.Seed)
	}
	if d := time.Since(m.CreatedAt); d < 0 || d > time.Minute {
		t.Fatalf("created at %v", m.CreatedAt)
	}
	version, overBy := int64(0), ""
	for i := 0; i < 2000 && overBy == ""; i++ {
		turn, err := c.WaitTurn(ctx, m.MatchID, 0, version)
		if err != nil {
			t.Fatal(err)
		}
		if turn.MatchOver {
			overBy = "bot"
			break
		}
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if legal.Player != 0 || legal.Version != turn.Version {
			t.Fatalf("seat %d at %d, the bot should have moved (turn at %d)", legal.Player, legal.Version, turn.Version)
		}
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action),
			&hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version)})
		if err != nil {
			t.Fatal(err)
		}
		version = r.Version
		if r.IsOver {
			overBy = "me"
			if len(r.Winners) == 0 {
				t.Fatal("no winners at the end")
			}
		} else if len(r.Winners) != 0 {
			t.Fatalf("winners %v before the end", r.Winners)
		}
	}
	end, err := c.GetMatch(ctx, m.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if overBy == "" || end.Status != pb.MatchStatus_MATCH_STATUS_OVER || end.Seed == nil || *end.Seed != 5 {
		t.Fatalf("over by %q, status %v, seed %v", overBy, end.Status, end.Seed)
	}

	b, err := c.CreateMatch(ctx, hunters.GameConfig{Game: "carcassonne_hg", Players: 2, Seed: hunters.Seed(1),
		Bots: map[int]string{0: "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitTurn(ctx, b.MatchID, 1, 0); err != nil {
		t.Fatal(err)
	}
	legal, err := c.LegalMoves(ctx, b.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Play(ctx, b.MatchID, b.SeatTokens[0], hunters.ByAction(legal.Moves[0].Action), nil)
	e := refused(t, err, codes.FailedPrecondition, "SEAT_PLAYED_BY_BOT")
	// one text: code, reason once, the server's message in the contract's words
	if e.Message != "seat 0 is played by the server's bot" ||
		e.Error() != "FAILED_PRECONDITION SEAT_PLAYED_BY_BOT: seat 0 is played by the server's bot" {
		t.Fatalf("message %q, error %q", e.Message, e.Error())
	}
	if !reflect.DeepEqual(e.Metadata, map[string]string{"match_id": b.MatchID, "seat": "0"}) {
		t.Fatalf("metadata %v", e.Metadata)
	}
	for c, want := range map[codes.Code]string{codes.OK: "OK", codes.DeadlineExceeded: "DEADLINE_EXCEEDED",
		codes.Unauthenticated: "UNAUTHENTICATED", codes.Code(99): "CODE(99)"} {
		if got := hunters.CodeName(c); got != want {
			t.Errorf("CodeName(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestListAndDeleteMatches(t *testing.T) {
	c, ctx := dial(t)
	var made []*hunters.CreatedMatch
	for seed := uint64(1); seed <= 3; seed++ {
		made = append(made, newMatch(t, c, ctx, "carcassonne_hg", seed))
	}
	j := newMatch(t, c, ctx, "jaeger_sammler", 1)
	seen := map[string]bool{}
	var listed []string
	token := ""
	pages := 0
	for {
		page, err := c.ListMatches(ctx, hunters.ListMatchesOptions{Game: "carcassonne_hg", PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Matches) > 2 {
			t.Fatalf("%d matches on a page of 2", len(page.Matches))
		}
		for _, m := range page.Matches {
			if m.Game != "carcassonne_hg" || m.CreatedAt.IsZero() {
				t.Fatalf("listed %+v", m)
			}
			seen[m.MatchID] = true
			listed = append(listed, m.MatchID)
		}
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	for _, m := range made {
		if !seen[m.MatchID] {
			t.Fatalf("%s not listed", m.MatchID)
		}
	}
	if seen[j.MatchID] || pages < 2 {
		t.Fatalf("the jaeger match listed (%v) or one page only (%d)", seen[j.MatchID], pages)
	}
	var all []string // AllMatches reads the same pages
	it := c.AllMatches(ctx, hunters.ListMatchesOptions{Game: "carcassonne_hg", PageSize: 2})
	for {
		m, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, m.MatchID)
	}
	if strings.Join(all, ",") != strings.Join(listed, ",") {
		t.Fatalf("AllMatches: %v, the pages: %v", all, listed)
	}
	gone := made[0]
	refused(t, c.DeleteMatch(ctx, gone.MatchID, gone.SeatTokens[0]), codes.PermissionDenied, "ADMIN_TOKEN_REQUIRED")
	if err := c.DeleteMatch(ctx, gone.MatchID, gone.AdminToken); err != nil {
		t.Fatal(err)
	}
	_, err := c.GetMatch(ctx, gone.MatchID)
	refused(t, err, codes.NotFound, "MATCH_NOT_FOUND")
	if _, err := c.WaitTurn(ctx, gone.MatchID, 0, 0); err != io.EOF && hunters.ReasonOf(err) != "MATCH_NOT_FOUND" {
		t.Fatalf("waiting on a deleted match: %v", err)
	}
}
