package hunters_test

// Game info (ListGames, GetGameInfo) is enough to understand the server without the Python package:
// every legal action code of whole games is decoded with only the published layout and compared with
// the server's structured move, and the published tiles and board agree with what the server plays.

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
	"google.golang.org/grpc/codes"
)

// playChecking plays a seeded random game; check sees the state and legal moves before every move.
func playChecking(t *testing.T, c *hunters.Client, ctx context.Context, cfg hunters.GameConfig,
	check func(*hunters.MatchState, []hunters.LegalMove)) int {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(*cfg.Seed)))
	m, err := c.CreateMatch(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	state, turns := m.State, 0
	for !hunters.IsOver(state) {
		legal, err := c.LegalMoves(ctx, m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		check(state, legal.Moves)
		pick := legal.Moves[rng.Intn(len(legal.Moves))]
		r, err := c.Play(ctx, m.MatchID, m.SeatTokens[legal.Player], hunters.ByAction(pick.Action), nil)
		if err != nil {
			t.Fatal(err)
		}
		state = r.State
		turns++
	}
	return turns
}

func TestListGames(t *testing.T) {
	c, ctx := dial(t)
	games, err := c.ListGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*hunters.GameSummary{}
	for _, g := range games {
		byID[g.GetGame()] = g
	}
	cs, js := byID["carcassonne_hg"], byID["jaeger_sammler"]
	if len(games) != 2 || cs == nil || js == nil || cs.GetMinPlayers() != 2 || cs.GetMaxPlayers() != 5 ||
		js.GetMinPlayers() < 2 || js.GetMaxPlayers() < js.GetMinPlayers() || cs.GetDisplayName() == "" {
		t.Fatalf("games: %v", games)
	}
	ci, err := c.GameInfo(ctx, "carcassonne_hg")
	if err != nil {
		t.Fatal(err)
	}
	ji, err := c.GameInfo(ctx, "jaeger_sammler")
	if err != nil {
		t.Fatal(err)
	}
	if ci.Carcassonne == nil || ci.Jaeger != nil || ji.Jaeger == nil || ji.Carcassonne != nil ||
		ci.Summary.GetGame() != "carcassonne_hg" || ji.Summary.GetGame() != "jaeger_sammler" {
		t.Fatalf("details: %v / %v", ci, ji)
	}
	// the action-space sizes follow from the published layouts
	a := ci.Carcassonne.GetActions()
	if want := int64(a.GetSide() * a.GetSide() * a.GetRotations() * a.GetOccupantSlots() * a.GetRetakeSlots()); cs.GetActionSpaceSize() != want {
		t.Fatalf("carcassonne_hg: %d actions, layout says %d", cs.GetActionSpaceSize(), want)
	}
	b := ji.Jaeger.GetActions()
	if want := int64(b.GetSteps()) * int64(b.GetSteps()+1); js.GetActionSpaceSize() != want {
		t.Fatalf("jaeger_sammler: %d actions, layout says %d", js.GetActionSpaceSize(), want)
	}
	_, err = c.GameInfo(ctx, "chess")
	refused(t, err, codes.InvalidArgument, "UNKNOWN_GAME")
}

func TestCarcassonneInfo(t *testing.T) {
	c, ctx := dial(t)
	gi, err := c.GameInfo(ctx, "carcassonne_hg")
	if err != nil {
		t.Fatal(err)
	}
	info := gi.Carcassonne
	tiles := info.GetTiles()
	if len(tiles) != 95 || tiles[info.GetStartTile()].GetKind() != pb.CarcassonneTileKind_CARCASSONNE_TILE_KIND_START ||
		1+len(info.GetNormalTiles())+len(info.GetMenhirTiles()) != 95 {
		t.Fatalf("%d tiles, start %d, %d normal, %d menhir", len(tiles), info.GetStartTile(), len(info.GetNormalTiles()), len(info.GetMenhirTiles()))
	}
	for i, tile := range tiles {
		locals := map[int32]bool{}
		for _, z := range tile.GetZones() {
			locals[z.GetLocal()] = true
		}
		if tile.GetId() != int32(i) || len(tile.GetSides()) != 4 {
			t.Fatalf("tile %d: id %d, %d sides", i, tile.GetId(), len(tile.GetSides()))
		}
		for _, side := range tile.GetSides() {
			want := 1
			if side.GetType() == pb.CarcassonneZoneType_CARCASSONNE_ZONE_TYPE_RIVER {
				want = 3
			}
			if len(side.GetZones()) != want {
				t.Fatalf("tile %d: a %s side with zones %v", i, side.GetType(), side.GetZones())
			}
			for _, z := range side.GetZones() {
				if !locals[z] {
					t.Fatalf("tile %d: side zone %d is none of its zones", i, z)
				}
			}
		}
	}
	for _, id := range info.GetMenhirTiles() {
		if tiles[id].GetKind() != pb.CarcassonneTileKind_CARCASSONNE_TILE_KIND_MENHIR {
			t.Fatalf("menhir tile %d: kind %s", id, tiles[id].GetKind())
		}
	}

	L := info.GetActions()
	facing := func(p *pb.CarcassonnePlacedTile, d int32) pb.CarcassonneZoneType {
		return tiles[p.GetTile()].GetSides()[((d-p.GetRotation())%4+4)%4].GetType()
	}
	decoded, retakes, turns := 0, 0, 0
	// the shaman (tile 88) as the only menhir tile, so that retake slots occur; games until one does
	for seed := uint64(31); retakes == 0 && seed < 37; seed++ {
		cfg := hunters.GameConfig{Game: "carcassonne_hg", Players: 3, Seed: hunters.Seed(seed),
			Carcassonne: &hunters.CarcassonneOptions{MenhirDeck: hunters.Deck(88)}}
		turns += playChecking(t, c, ctx, cfg, func(state *hunters.MatchState, moves []hunters.LegalMove) {
			view := state.GetCarcassonne()
			tile := view.GetTile()
			var mine []int32 // the mover's meeples on the board, by global zone id: the retake slots
			for _, p := range view.GetOccupants() {
				if p.GetSeat() == state.GetPlayer() && p.GetKind() == pb.PieceKind_PIECE_KIND_MEEPLE {
					mine = append(mine, p.GetZone())
				}
			}
			sort.Slice(mine, func(i, j int) bool { return mine[i] < mine[j] })
			for _, lm := range moves {
				a := lm.Action
				ret := int32(a % int64(L.GetRetakeSlots()))
				a /= int64(L.GetRetakeSlots())
				occ := int32(a % int64(L.GetOccupantSlots()))
				a /= int64(L.GetOccupantSlots())
				rotation := int32(a % int64(L.GetRotations()))
				a /= int64(L.GetRotations())
				x := int32(a%int64(L.GetSide())) - L.GetBound()
				y := int32(a/int64(L.GetSide())) - L.GetBound()
				want := &pb.CarcassonneMove{X: x, Y: y, Rotation: rotation}
				switch {
				case occ >= L.GetHutSlotBase():
					want.Occupant = &pb.CarcassonneOccupant{Kind: pb.PieceKind_PIECE_KIND_HUT, Zone: tile*10 + occ - L.GetHutSlotBase()}
				case occ >= L.GetMeepleSlotBase():
					want.Occupant = &pb.CarcassonneOccupant{Kind: pb.PieceKind_PIECE_KIND_MEEPLE, Zone: tile*10 + occ - L.GetMeepleSlotBase()}
				}
				if ret > 0 {
					want.Retake = &mine[ret-1]
					retakes++
				}
				got := lm.Move.GetCarcassonne()
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Fatalf("action %d decodes to %v, the server's move is %v", lm.Action, want, got)
				}
				decoded++
			}
			// every placed tile's sides match its neighbours' facing sides (side facing d = (d - r) mod 4)
			at := map[[2]int32]*pb.CarcassonnePlacedTile{}
			for _, p := range view.GetBoard() {
				at[[2]int32{p.GetX(), p.GetY()}] = p
			}
			for _, p := range view.GetBoard() {
				if e := at[[2]int32{p.GetX() + 1, p.GetY()}]; e != nil && facing(p, 1) != facing(e, 3) {
					t.Fatalf("(%d,%d) east: %s against %s", p.GetX(), p.GetY(), facing(p, 1), facing(e, 3))
				}
				if s := at[[2]int32{p.GetX(), p.GetY() + 1}]; s != nil && facing(p, 2) != facing(s, 0) {
					t.Fatalf("(%d,%d) south: %s against %s", p.GetX(), p.GetY(), facing(p, 2), facing(s, 0))
				}
			}
		})
	}
	if retakes == 0 || turns < 40 || decoded < 10*turns {
		t.Fatalf("%d turns, %d codes, %d with a retake", turns, decoded, retakes)
	}
	t.Logf("carcassonne_hg: %d action codes of %d turns decoded (%d with a retake)", decoded, turns, retakes)
}

func TestJaegerInfo(t *testing.T) {
	c, ctx := dial(t)
	gi, err := c.GameInfo(ctx, "jaeger_sammler")
	if err != nil {
		t.Fatal(err)
	}
	info := gi.Jaeger
	board, L := info.GetBoard(), info.GetActions()
	if int32(len(board)) != L.GetSpaces() || L.GetSlots() != L.GetDirections()+L.GetCaves()+1 || L.GetSteps() != L.GetSpaces()*L.GetSlots() {
		t.Fatalf("layout %v on %d spaces", L, len(board))
	}
	for _, s := range board {
		if int32(len(s.GetNeighbours())) != L.GetDirections() {
			t.Fatalf("space %d: neighbours %v", s.GetSpace(), s.GetNeighbours())
		}
		for _, n := range s.GetNeighbours() {
			if n < 0 {
				continue
			}
			mutual := false
			for _, back := range board[n].GetNeighbours() {
				mutual = mutual || back == s.GetSpace()
			}
			if !mutual {
				t.Fatalf("space %d has neighbour %d, not the other way round", s.GetSpace(), n)
			}
		}
	}
	for _, camp := range info.GetSummerCamps() {
		if board[camp].GetKind() != pb.JaegerSpaceKind_JAEGER_SPACE_KIND_SUMMER_CAMP {
			t.Fatalf("summer camp %d is %s", camp, board[camp].GetKind())
		}
	}
	for _, k := range info.GetTileKinds() {
		if k.GetKind() == pb.JaegerTileKind_JAEGER_TILE_KIND_CAVE && k.GetSummerCount() != L.GetCaves() {
			t.Fatalf("%d cave tiles, %d cave slots", k.GetSummerCount(), L.GetCaves())
		}
	}

	caveJumps, leaves := 0, 0
	step := func(code int32, caves []int32) hunters.Step {
		src, slot := code/L.GetSlots(), code%L.GetSlots()
		switch {
		case slot < L.GetDirections():
			dst := board[src].GetNeighbours()[slot]
			return hunters.Step{Src: src, Dst: &dst}
		case slot < L.GetDirections()+L.GetCaves():
			caveJumps++
			return hunters.Step{Src: src, Dst: &caves[slot-L.GetDirections()]}
		}
		leaves++
		return hunters.Step{Src: src} // leaves the board
	}
	show := func(steps []hunters.Step) string {
		out := ""
		for _, s := range steps {
			if s.Dst == nil {
				out += fmt.Sprintf("%d->off ", s.Src)
			} else {
				out += fmt.Sprintf("%d->%d ", s.Src, *s.Dst)
			}
		}
		return out
	}
	decoded, twoSteps := 0, 0
	cfg := hunters.GameConfig{Game: "jaeger_sammler", Players: 3, Seed: hunters.Seed(41)}
	turns := playChecking(t, c, ctx, cfg, func(state *hunters.MatchState, moves []hunters.LegalMove) {
		var caves []int32 // the spaces holding a cave tile, ascending
		for _, s := range state.GetJaeger().GetBoard() {
			if s.GetTile().GetKind() == pb.JaegerTileKind_JAEGER_TILE_KIND_CAVE {
				caves = append(caves, s.GetSpace())
			}
		}
		sort.Slice(caves, func(i, j int) bool { return caves[i] < caves[j] })
		for _, lm := range moves {
			first, second := int32(lm.Action/int64(L.GetSteps()+1)), int32(lm.Action%int64(L.GetSteps()+1))
			want := []hunters.Step{step(first, caves)}
			if second != 0 {
				want = append(want, step(second-1, caves))
				twoSteps++
			}
			if got := hunters.JaegerSteps(lm.Move); show(got) != show(want) {
				t.Fatalf("action %d decodes to %s, the server's move is %s", lm.Action, show(want), show(got))
			}
			decoded++
		}
	})
	if turns < 10 || decoded <= turns || twoSteps == 0 || caveJumps == 0 || leaves == 0 {
		t.Fatalf("%d turns, %d codes, %d two-step, %d cave jumps, %d leaving steps", turns, decoded, twoSteps, caveJumps, leaves)
	}
	t.Logf("jaeger_sammler: %d action codes of %d turns decoded (%d two-step, %d cave-jump and %d leaving steps)",
		decoded, turns, twoSteps, caveJumps, leaves)
}
