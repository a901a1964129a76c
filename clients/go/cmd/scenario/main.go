// Command scenario runs the client conformance scenario (clients/scenario/scenario.json) with the Go
// client: one line a step on stdout, the transcript every client of the project must print alike
// (clients/scenario/README.md says what each op does and prints).
//
//	scenario ADDRESS SCENARIO_JSON      (scripts/go.sh run ./cmd/scenario ADDRESS ../scenario/scenario.json)
//
// A unary interceptor counts each call's tries and loses replies where a step asks it to, so that
// a retry is seen in the transcript.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	pb "github.com/hunters/hunters/clients/go/gen/hunters/v1"
	"github.com/hunters/hunters/clients/go/hunters"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Step is one step of the scenario, as the JSON has it.
type Step struct {
	Name                string            `json:"name"`
	Op                  string            `json:"op"`
	Server              string            `json:"server"`
	As                  string            `json:"as"`
	Game                string            `json:"game"`
	Players             int               `json:"players"`
	Seed                *uint64           `json:"seed"`
	Bots                map[string]string `json:"bots"`
	Match               string            `json:"match"`
	MatchID             *string           `json:"match_id"`
	Token               *string           `json:"token"`
	By                  string            `json:"by"`
	Action              *int64            `json:"action"`
	PickAt              *int64            `json:"pick_at"`
	Offset              int               `json:"offset"`
	ExpectedVersion     *int64            `json:"expected_version"`
	RequestID           string            `json:"request_id"`
	LoseReplies         int               `json:"lose_replies"`
	Seat                int               `json:"seat"`
	From                int64             `json:"from"`
	TimeoutMs           int               `json:"timeout_ms"`
	ResumeVersion       *int64            `json:"resume_version"`
	PageSize            *int              `json:"page_size"`
	PageToken           *string           `json:"page_token"`
	Depth               int               `json:"depth"`
	MaxNodes            int64             `json:"max_nodes"`
	Games               int64             `json:"games"`
	IllegalAction       int64             `json:"illegal_action"`
	IllegalAtMove       int               `json:"illegal_at_move"`
	ResendMove          int               `json:"resend_move"`
	ReconnectAfterMoves int               `json:"reconnect_after_moves"`
}

// rpcOf is the RPC whose tries a step counts: its op's own (not the lookups a client makes on the way).
var rpcOf = map[string]string{"play": "PlayMove", "delete_match": "DeleteMatch", "get_match": "GetMatch",
	"create_match": "CreateMatch", "list_matches": "ListMatches", "all_matches": "ListMatches"}

// counted are the ops that print their tries (and every op on the gone server).
var counted = map[string]bool{"play": true, "delete_match": true}

const lost = "the reply was lost (the scenario's hook)"

// hook is what the scenario sees of unary calls, and the replies it loses.
type hook struct {
	mu     sync.Mutex
	calls  []call
	losing map[string]int
}

type call struct {
	method  string
	request interface{}
}

func (h *hook) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls, h.losing = nil, map[string]int{}
}

func (h *hook) lose(method string, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.losing[method] = n
}

func (h *hook) requests(method string) []interface{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []interface{}
	for _, c := range h.calls {
		if c.method == method {
			out = append(out, c.request)
		}
	}
	return out
}

func (h *hook) interceptor(ctx context.Context, method string, req, reply interface{}, cc *grpc.ClientConn,
	invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	name := method[strings.LastIndex(method, "/")+1:]
	h.mu.Lock()
	h.calls = append(h.calls, call{name, req})
	lose := h.losing[name] > 0
	if lose {
		h.losing[name]--
	}
	h.mu.Unlock()
	err := invoker(ctx, method, req, reply, cc, opts...) // the server has answered
	if lose {
		return status.Error(codes.Unavailable, lost)
	}
	return err
}

type field struct {
	key   string
	value string
}

func f(key string, v interface{}) field { return field{key, value(v)} }

func value(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []string:
		if len(x) == 0 {
			return "-"
		}
		return strings.Join(x, ",")
	case []int32:
		out := make([]string, len(x))
		for i, n := range x {
			out[i] = fmt.Sprint(n)
		}
		return value(out)
	case []int64:
		out := make([]string, len(x))
		for i, n := range x {
			out[i] = fmt.Sprint(n)
		}
		return value(out)
	case []int:
		out := make([]string, len(x))
		for i, n := range x {
			out[i] = fmt.Sprint(n)
		}
		return value(out)
	}
	return fmt.Sprint(v)
}

func span(versions map[int64]bool) string {
	var max int64 = -1
	for v := range versions {
		if v > max {
			max = v
		}
	}
	whole := len(versions) > 0 && int64(len(versions)) == max+1
	for v := range versions {
		whole = whole && v >= 0
	}
	if whole {
		return fmt.Sprintf("0..%d", max)
	}
	sorted := make([]int64, 0, len(versions))
	for v := range versions {
		sorted = append(sorted, v)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	return value(sorted)
}

// errorText is the error's one line; a status the server did not send is written without the
// library's message.
func errorText(e *hunters.Error) string {
	code := hunters.CodeName(e.Code)
	text := e.Error()
	if e.Reason == code {
		text = code + " " + e.Reason
	}
	keys := make([]string, 0, len(e.Metadata))
	for k := range e.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	meta := make([]string, len(keys))
	for i, k := range keys {
		meta[i] = k + "=" + e.Metadata[k]
	}
	if len(meta) > 0 {
		text += " | " + strings.Join(meta, ",")
	}
	return text
}

// failed is a step's error with the fields the step had when it failed.
type failed struct {
	err    *hunters.Error
	fields []field
}

func (e *failed) Error() string { return e.err.Error() }

func statusName(s pb.MatchStatus) string { return strings.TrimPrefix(s.String(), "MATCH_STATUS_") }

func stateFields(s *pb.MatchState) []field {
	return []field{f("scores", s.GetScores()), f("winners", s.GetWinners())}
}

func botsOf(bots map[int]string) []string {
	seats := make([]int, 0, len(bots))
	for seat := range bots {
		seats = append(seats, seat)
	}
	sort.Ints(seats)
	out := make([]string, len(seats))
	for i, seat := range seats {
		out[i] = fmt.Sprintf("%d:%s", seat, bots[seat])
	}
	return out
}

func index(version int64, n, offset int) int { return int((version*7 + 3 + int64(offset)) % int64(n)) }

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
	m, err := c.CreateMatch(r.ctx, hunters.GameConfig{Game: s.Game, Players: s.Players, Seed: s.Seed, Bots: bots})
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
	return append(out, f("seed", seed), f("bots", botsOf(m.Bots))), nil
}

func (r *run) legalMoves(c *hunters.Client, s Step) ([]field, error) {
	legal, err := c.LegalMoves(r.ctx, r.matchID(s))
	if err != nil {
		return nil, err
	}
	r.legal[fmt.Sprintf("%s/%d", s.Match, legal.Version)] = legal
	return []field{f("version", legal.Version), f("player", legal.Player), f("moves", len(legal.Moves))}, nil
}

func (r *run) play(c *hunters.Client, s Step) ([]field, error) {
	var p hunters.Play
	if s.Action != nil {
		p = hunters.ByAction(*s.Action)
	} else {
		m, err := r.chosen(c, s)
		if err != nil {
			return nil, err
		}
		p = hunters.ByMove(m.Move)
		if s.By == "action" {
			p = hunters.ByAction(m.Action)
		}
	}
	if s.LoseReplies > 0 {
		r.hook.lose("PlayMove", s.LoseReplies)
	}
	res, err := c.Play(r.ctx, r.matchID(s), r.token(s), p, &hunters.PlayOptions{ExpectedVersion: s.ExpectedVersion, RequestID: s.RequestID})
	if err != nil {
		return nil, err
	}
	out := []field{f("version", res.Version), f("over", res.IsOver), f("winners", res.Winners)}
	if tries := r.hook.requests("PlayMove"); len(tries) > 1 {
		ids := map[string]bool{}
		for _, t := range tries {
			ids[t.(*pb.PlayMoveRequest).GetRequestId()] = true
		}
		out = append(out, f("same_request_id", len(ids) == 1 && !ids[""]))
	}
	return out, nil
}

func (r *run) waitTurn(c *hunters.Client, s Step) ([]field, error) {
	ev, err := c.WaitTurn(r.ctx, r.matchID(s), s.Seat, s.From)
	if err == io.EOF {
		return []field{f("ended", true)}, nil
	}
	if err != nil {
		return nil, err
	}
	return []field{f("version", ev.Version), f("player", ev.State.GetPlayer()), f("over", ev.MatchOver)}, nil
}

func (r *run) watch(c *hunters.Client, s Step) ([]field, error) {
	ctx, cancel := r.ctx, context.CancelFunc(func() {})
	if s.TimeoutMs > 0 {
		ctx, cancel = context.WithTimeout(ctx, time.Duration(s.TimeoutMs)*time.Millisecond)
	}
	defer cancel()
	seen := map[int64]bool{}
	w, err := c.Watch(ctx, r.matchID(s), s.From)
	for err == nil {
		var ev *hunters.MatchEvent
		if ev, err = w.Recv(); err == nil {
			seen[ev.Version] = true
		}
	}
	if err != io.EOF {
		var e *hunters.Error
		if !errors.As(err, &e) {
			return nil, err
		}
		var fields []field
		if len(seen) > 0 {
			fields = []field{f("versions", span(seen))}
		}
		return nil, &failed{e, fields}
	}
	return []field{f("versions", span(seen))}, nil
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

func (r *run) playByUnary(c *hunters.Client, s Step) ([]field, error) {
	id := r.matchID(s)
	token := r.matches[s.Match].SeatTokens[s.Seat]
	version, moves := s.From, 0
	for {
		ev, err := c.WaitTurn(r.ctx, id, s.Seat, version)
		if err == io.EOF || (err == nil && ev.MatchOver) {
			break
		}
		if err != nil {
			return nil, err
		}
		legal, err := c.LegalMoves(r.ctx, id)
		if err != nil {
			return nil, err
		}
		m := legal.Moves[index(legal.Version, len(legal.Moves), 0)]
		p := hunters.ByAction(m.Action)
		if legal.Version%2 == 0 { // structured moves and action codes in turn
			p = hunters.ByMove(m.Move)
		}
		res, err := c.Play(r.ctx, id, token, p, &hunters.PlayOptions{ExpectedVersion: hunters.Version(legal.Version), ChangesOnly: true})
		if err != nil {
			return nil, err
		}
		moves, version = moves+1, res.Version
		if res.IsOver {
			break
		}
	}
	end, err := c.GetMatch(r.ctx, id)
	if err != nil {
		return nil, err
	}
	out := []field{f("moves", moves), f("version", end.Version), f("over", hunters.IsOver(end.State))}
	return append(out, stateFields(end.State)...), nil
}

func (r *run) playBySeatStream(c *hunters.Client, s Step) ([]field, error) {
	id, token := r.matchID(s), r.token(s)
	moves, played, retried, reconnects := 0, 0, 0, 0
	var refused []*hunters.Error
	seen := map[int64]bool{}
	var last *hunters.MatchEvent
	illegalSent := false
	var resume *int64
	retriesDue := 0
	if s.ResendMove > 0 {
		retriesDue = 1
	}
	for {
		stream, err := c.Seat(r.ctx, id, token, resume)
		if err != nil {
			return nil, err
		}
		reopen := false
	read:
		for {
			m, err := stream.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				stream.Close()
				return nil, err
			}
			if m.Event != nil {
				seen[m.Event.Version] = true
				last = m.Event
			}
			if m.Played != nil {
				if m.Played.Retried {
					retried++
				} else {
					played++
				}
				if reconnects == 0 && played >= s.ReconnectAfterMoves && retried >= retriesDue && played == moves {
					reopen = true
					break read
				}
			}
			if m.Refused != nil {
				refused = append(refused, m.Refused.Err)
			}
			if t := m.Turn; t != nil {
				if !illegalSent && moves+1 == s.IllegalAtMove {
					if err := stream.Play(t.Version, hunters.ByAction(s.IllegalAction), ""); err != nil {
						return nil, err
					}
					illegalSent = true
					continue
				}
				action := t.Moves[index(t.Version, len(t.Moves), 0)].Action
				requestID := fmt.Sprintf("seat-%d", t.Version)
				if err := stream.Play(t.Version, hunters.ByAction(action), requestID); err != nil {
					return nil, err
				}
				moves++
				if moves == s.ResendMove {
					if err := stream.Play(t.Version, hunters.ByAction(action), requestID); err != nil {
						return nil, err
					}
				}
			}
		}
		stream.Close()
		if !reopen {
			break
		}
		reconnects++
		v := stream.LastVersion()
		resume = &v
	}
	for _, e := range refused {
		r.more = append(r.more, moreLine{"refused", e})
	}
	if last == nil {
		return nil, errors.New("the seat stream sent no version")
	}
	out := []field{f("moves", moves), f("played", played), f("retried", retried), f("refused", len(refused)),
		f("reconnects", reconnects), f("versions", span(seen)), f("over", last.MatchOver)}
	return append(out, stateFields(last.State)...), nil
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

// freePort is a loopback address that nothing listens on (bound and let go).
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: scenario ADDRESS SCENARIO_JSON")
		os.Exit(2)
	}
	if err := scenario(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func scenario(address, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc struct {
		Steps []Step `json:"steps"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return err
	}
	ctx := context.Background()
	h := &hook{losing: map[string]int{}}
	nowhere, err := freePort()
	if err != nil {
		return err
	}
	c, err := hunters.Dial(ctx, address, grpc.WithUnaryInterceptor(h.interceptor))
	if err != nil {
		return err
	}
	defer c.Close()
	gone, err := hunters.Dial(ctx, nowhere, grpc.WithUnaryInterceptor(h.interceptor))
	if err != nil {
		return err
	}
	defer gone.Close()
	r := &run{ctx: ctx, client: c, gone: gone, hook: h, matches: map[string]*hunters.CreatedMatch{},
		labels: map[string]string{}, legal: map[string]*hunters.LegalMoves{}}
	return r.run(doc.Steps)
}
