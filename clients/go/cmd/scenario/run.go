package main

// One run of the scenario: its state, the loop over the steps, and the ops that read and list.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

type run struct {
	ctx          context.Context
	client, gone *hunters.Client
	hook         *hook
	matches      map[string]*hunters.CreatedMatch
	labels       map[string]string
	legal        map[string]*hunters.LegalMoves
	nextToken    string
	more         []moreLine
}

type moreLine struct {
	name string
	err  *hunters.Error
}

func (r *run) canon(text string) string {
	for id, label := range r.labels {
		text = strings.ReplaceAll(text, id, "<"+label+">")
	}
	return text
}

func (r *run) label(id string) string {
	if l, ok := r.labels[id]; ok {
		return l
	}
	return "?"
}

func (r *run) matchID(s Step) string {
	if s.MatchID != nil {
		return *s.MatchID
	}
	return r.matches[s.Match].MatchID
}

var seatToken = regexp.MustCompile(`^seat(\d+)$`)

func (r *run) token(s Step) string {
	name := ""
	if s.Token != nil {
		name = *s.Token
	}
	m := r.matches[s.Match]
	if m != nil && seatToken.MatchString(name) {
		var seat int
		fmt.Sscan(name[4:], &seat)
		return m.SeatTokens[seat]
	}
	if m != nil && name == "admin" {
		return m.AdminToken
	}
	return name
}

func (r *run) chosen(c *hunters.Client, s Step) (hunters.LegalMove, error) {
	var legal *hunters.LegalMoves
	if s.PickAt != nil {
		legal = r.legal[fmt.Sprintf("%s/%d", s.Match, *s.PickAt)]
	} else {
		var err error
		if legal, err = c.LegalMoves(r.ctx, r.matches[s.Match].MatchID); err != nil {
			return hunters.LegalMove{}, err
		}
		r.legal[fmt.Sprintf("%s/%d", s.Match, legal.Version)] = legal
	}
	return legal.Moves[index(legal.Version, len(legal.Moves), s.Offset)], nil
}

func (r *run) run(steps []Step) error {
	ops := map[string]func(*hunters.Client, Step) ([]field, error){
		"list_games": r.listGames, "game_info": r.gameInfo, "create_match": r.createMatch,
		"get_match": r.getMatch, "legal_moves": r.legalMoves, "play": r.play, "wait_turn": r.waitTurn,
		"watch": r.watch, "get_record": r.getRecord, "delete_match": r.deleteMatch,
		"list_matches": r.listMatches, "all_matches": r.allMatches, "seat_open": r.seatOpen,
		"play_by_unary": r.playByUnary, "play_by_seat_stream": r.playBySeatStream, "perft": r.perft,
		"evaluate": r.evaluate, "simulate": r.simulate, "conformance_vectors": r.conformanceVectors,
		"analyze": r.analyze, "request_review": r.requestReview, "get_review": r.getReview, "review": r.review,
	}
	for _, s := range steps {
		r.hook.reset()
		op, ok := ops[s.Op]
		if !ok {
			return fmt.Errorf("unknown op %q", s.Op)
		}
		c := r.client
		if s.Server == "gone" {
			c = r.gone
		}
		fields, err := op(c, s)
		var stepErr *hunters.Error
		var fail *failed
		if errors.As(err, &fail) {
			fields, stepErr = fail.fields, fail.err
		} else if errors.As(err, &stepErr) {
			fields = nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		if counted[s.Op] || s.Server == "gone" {
			fields = append(fields, f("attempts", len(r.hook.requests(rpcOf[s.Op]))))
		}
		words := []string{s.Name + ":", "ok"}
		if stepErr != nil {
			words[1] = "error"
		}
		for _, fl := range fields {
			words = append(words, fl.key+"="+fl.value)
		}
		if stepErr != nil {
			words = append(words, "|", errorText(stepErr))
		}
		fmt.Println(r.canon(strings.Join(words, " ")))
		for _, m := range r.more {
			fmt.Println(r.canon(fmt.Sprintf("%s %s: error | %s", s.Name, m.name, errorText(m.err))))
		}
		r.more = nil
	}
	return nil
}

func (r *run) listGames(c *hunters.Client, s Step) ([]field, error) {
	games, err := c.ListGames(r.ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.GetGame()
	}
	sort.Strings(ids)
	return []field{f("games", ids)}, nil
}

func (r *run) gameInfo(c *hunters.Client, s Step) ([]field, error) {
	info, err := c.GameInfo(r.ctx, s.Game)
	if err != nil {
		return nil, err
	}
	details := "-"
	if info.Carcassonne != nil {
		details = "carcassonne"
	} else if info.Jaeger != nil {
		details = "jaeger"
	}
	sm := info.Summary
	return []field{f("game", sm.GetGame()), f("players", fmt.Sprintf("%d..%d", sm.GetMinPlayers(), sm.GetMaxPlayers())),
		f("action_space", sm.GetActionSpaceSize()), f("details", details)}, nil
}

func (r *run) createMatch(c *hunters.Client, s Step) ([]field, error) {
	bots := map[int]string{}
	for seat, spec := range s.Bots {
		var n int
		fmt.Sscan(seat, &n)
		bots[n] = spec
	}
	m, err := c.CreateMatch(r.ctx, hunters.GameConfig{Game: s.Game, Players: s.Players, Seed: s.Seed, Bots: bots,
		Hints: s.Hints})
	if err != nil {
		return nil, err
	}
	if s.As != "" {
		r.matches[s.As] = m
		r.labels[m.MatchID] = s.As
	}
	return []field{f("game", m.Game), f("version", m.Version), f("players", m.Players), f("status", statusName(m.Status)),
		f("bots", botsOf(m.Bots)), f("seat_tokens", len(m.SeatTokens)), f("admin_token", m.AdminToken != "")}, nil
}

func (r *run) getMatch(c *hunters.Client, s Step) ([]field, error) {
	m, err := c.GetMatch(r.ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	seed := "hidden"
	if m.Seed != nil {
		seed = fmt.Sprint(*m.Seed)
	}
	out := []field{f("game", m.Game), f("version", m.Version), f("player", m.State.GetPlayer()), f("status", statusName(m.Status))}
	out = append(out, stateFields(m.State)...)
	return append(out, f("seed", seed), f("bots", botsOf(m.Bots)), f("hints", m.Hints)), nil
}

func (r *run) legalMoves(c *hunters.Client, s Step) ([]field, error) {
	legal, err := c.LegalMoves(r.ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	r.legal[fmt.Sprintf("%s/%d", s.Match, legal.Version)] = legal
	return []field{f("version", legal.Version), f("player", legal.Player), f("moves", len(legal.Moves))}, nil
}

func (r *run) getRecord(c *hunters.Client, s Step) ([]field, error) {
	token := ""
	if s.Token != nil {
		token = r.token(s)
	}
	raw, err := c.GetRecord(r.ctx, r.matchID(s), token)
	if err != nil {
		return nil, err
	}
	var record struct {
		Moves   []json.RawMessage `json:"moves"`
		Seed    *uint64           `json:"seed"`
		Players int               `json:"players"`
	}
	if err := json.Unmarshal(raw, &record); err != nil {
		return nil, err
	}
	var seed interface{}
	if record.Seed != nil {
		seed = *record.Seed
	}
	return []field{f("moves", len(record.Moves)), f("seed", seed), f("players", record.Players)}, nil
}

func (r *run) deleteMatch(c *hunters.Client, s Step) ([]field, error) {
	if s.LoseReplies > 0 {
		r.hook.lose("DeleteMatch", s.LoseReplies)
	}
	return nil, c.DeleteMatch(r.ctx, r.matchID(s), r.token(s))
}

func pageSize(s Step) int {
	if s.PageSize == nil {
		return 50
	}
	return *s.PageSize
}

func (r *run) listMatches(c *hunters.Client, s Step) ([]field, error) {
	token := ""
	if s.PageToken != nil && *s.PageToken == "next" {
		token = r.nextToken
	} else if s.PageToken != nil {
		token = *s.PageToken
	}
	page, err := c.ListMatches(r.ctx, hunters.ListMatchesOptions{Game: s.Game, PageSize: pageSize(s), PageToken: token})
	if err != nil {
		return nil, err
	}
	r.nextToken = page.NextPageToken
	labels := []string{}
	for _, m := range page.Matches {
		labels = append(labels, r.label(m.MatchID))
	}
	return []field{f("matches", labels), f("next", page.NextPageToken != "")}, nil
}

func (r *run) allMatches(c *hunters.Client, s Step) ([]field, error) {
	it := c.AllMatches(r.ctx, hunters.ListMatchesOptions{Game: s.Game, PageSize: pageSize(s)})
	labels := []string{}
	for {
		m, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		labels = append(labels, r.label(m.MatchID))
	}
	return []field{f("matches", labels), f("pages", len(r.hook.requests("ListMatches")))}, nil
}

func (r *run) seatOpen(c *hunters.Client, s Step) ([]field, error) {
	stream, err := c.Seat(r.ctx, r.matchID(s), r.token(s), s.ResumeVersion)
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	m, err := stream.Recv()
	if err == io.EOF {
		return []field{f("first", "-")}, nil
	}
	if err != nil {
		return nil, err
	}
	first := "turn"
	switch {
	case m.Event != nil:
		first = "event"
	case m.Played != nil:
		first = "played"
	case m.Refused != nil:
		first = "refused"
	}
	return []field{f("first", first)}, nil
}

func (r *run) perft(c *hunters.Client, s Step) ([]field, error) {
	count, err := c.Perft(r.ctx, hunters.PerftRequest{Config: hunters.GameConfig{Game: s.Game, Players: s.Players, Seed: s.Seed},
		Depth: s.Depth, MaxNodes: s.MaxNodes, Timeout: time.Duration(s.TimeoutMs) * time.Millisecond})
	if err != nil {
		return nil, err
	}
	var lines []*pb.PerftResponse
	for {
		line, err := count.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	return []field{f("total", lines[len(lines)-1].GetCount()), f("lines", len(lines))}, nil
}

func (r *run) evaluate(c *hunters.Client, s Step) ([]field, error) {
	e, err := c.Evaluate(r.ctx, hunters.GameConfig{Game: s.Game, Players: s.Players, Seed: s.Seed}, nil, true)
	if err != nil {
		return nil, err
	}
	return []field{f("legal", e.Legal), f("player", e.State.GetPlayer()), f("legal_moves", len(e.LegalMoves))}, nil
}

func (r *run) simulate(c *hunters.Client, s Step) ([]field, error) {
	seed := uint64(0)
	if s.Seed != nil {
		seed = *s.Seed
	}
	sim, err := c.Simulate(r.ctx, hunters.SimulationRequest{Game: s.Game, Players: s.Players, Games: s.Games, Seed: seed})
	if err != nil {
		return nil, err
	}
	var p *hunters.SimulationProgress
	for {
		next, err := sim.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		p = next
	}
	return []field{f("games", p.GamesDone), f("moves", p.Moves), f("wins", p.Wins), f("done", p.Done)}, nil
}

func (r *run) conformanceVectors(c *hunters.Client, s Step) ([]field, error) {
	files, err := c.ConformanceVectors(r.ctx, "")
	if err != nil {
		return nil, err
	}
	return []field{f("nonempty", len(files) > 0)}, nil
}
