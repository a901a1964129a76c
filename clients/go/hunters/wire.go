package hunters

// Every dependency of the facade on the shape of the generated messages lives in this file:
// requests are built and responses read only here, so a change of the contract is adapted in one place.

//go:generate ../scripts/generate.sh

import (
	"encoding/json"
	"errors"
	"sort"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
)

// The generated types the facade hands out as they are: a move, a state view, an event, the typed
// options of each game and the game data of GetGameInfo.
type (
	Move               = pb.Move
	MatchState         = pb.MatchState
	Event              = pb.Event
	CarcassonneOptions = pb.CarcassonneOptions
	JaegerOptions      = pb.JaegerOptions
	GameSummary        = pb.GameSummary
	CarcassonneInfo    = pb.CarcassonneInfo
	JaegerInfo         = pb.JaegerInfo
)

// GameConfig says how a game starts: at most one of the game's typed options (Carcassonne or
// Jaeger; the server refuses options of the other game and any bad value with INVALID_CONFIG), JSON
// only for a game without typed options.
type GameConfig struct {
	Game        string
	Players     int
	Seed        *uint64 // nil: the server draws one (shown only once the match is over)
	Carcassonne *CarcassonneOptions
	Jaeger      *JaegerOptions
	JSON        map[string]any
	// Bots are the seats the server plays itself, seat -> bot spec ("random", "greedy",
	// "mcts:iterations=1000"); CreateMatch only. Their moves arrive like anyone's (Watch, GetMatch,
	// WaitTurn); Play with a bot seat's token is FAILED_PRECONDITION / SEAT_PLAYED_BY_BOT.
	Bots map[int]string
	// Hints allows hints (CreateMatch only): each seat's token may ask Analyze for its own view of
	// the match while it is played.
	Hints bool
}

// Deck is a helper for CarcassonneOptions.NormalDeck / MenhirDeck: the tiles in draw order.
func Deck(tiles ...int32) *pb.CarcassonneDeck { return &pb.CarcassonneDeck{Tiles: tiles} }

// IsOver says whether a state is final (status GAME_STATUS_OVER).
func IsOver(s *MatchState) bool { return s.GetStatus() == pb.GameStatus_GAME_STATUS_OVER }

// Seed is a helper for GameConfig.Seed.
func Seed(s uint64) *uint64 { return &s }

// MatchInfo is a match as anyone may see it.
type MatchInfo struct {
	MatchID string
	Game    string
	Players int
	Version int64 // moves applied; version n follows move n
	State   *MatchState
	Status  pb.MatchStatus // active, over, or abandoned (idle too long: readable, closed for moves)
	// CreatedAt is when the match was created.
	CreatedAt time.Time
	Bots      map[int]string // the seats the server's bots play, seat -> bot spec
	Seed      *uint64        // shown only once the match is over
	Hints     bool           // hints are allowed (GameConfig.Hints)
}

// MatchPage is one page of ListMatches, oldest first; NextPageToken is "" on the last page.
type MatchPage struct {
	Matches       []MatchInfo
	NextPageToken string
}

// ListMatchesOptions select a page of ListMatches.
type ListMatchesOptions struct {
	Game      string // only this game's matches; "": every game
	PageSize  int    // 0: the server's default (50); at most 500
	PageToken string // NextPageToken of the previous page; "" for the first
}

// CreatedMatch is a new match with its secrets.
type CreatedMatch struct {
	MatchInfo
	SeatTokens []string // one per seat, index = seat: the only way to play that seat
	AdminToken string   // for GetRecord before the end
}

// LegalMove is a legal move with its dense action code.
type LegalMove struct {
	Move   *Move
	Action int64
}

// LegalMoves are the moves of the seat to move.
type LegalMoves struct {
	Version int64
	Player  int
	Moves   []LegalMove
}

// Play is a move to play: a structured Move, or its dense action code.
type Play struct {
	move   *Move
	action *int64
}

// ByMove plays a structured move.
func ByMove(m *Move) Play { return Play{move: m} }

// ByAction plays a dense action code.
func ByAction(a int64) Play { return Play{action: &a} }

// PlayResult is what a move caused.
type PlayResult struct {
	Version int64
	Events  []*Event
	State   *MatchState
	IsOver  bool  // the move ended the game (State.Status is GAME_STATUS_OVER)
	Winners []int // the winning seats once the game is over (several on a tie); empty before
}

// MatchEvent is one version of a watched match; version 0 is the creation (Seat -1, no Move).
type MatchEvent struct {
	MatchID   string
	Version   int64
	Seat      int // who moved; -1 at the creation
	Move      *Move
	Events    []*Event
	State     *MatchState
	MatchOver bool // the last version: the game is over and the stream ends after it
}

// GameInfo is one game's static data: its summary, and the details of exactly one game.
type GameInfo struct {
	Summary     *GameSummary
	Carcassonne *CarcassonneInfo // carcassonne_hg: action layout, every tile, the piles
	Jaeger      *JaegerInfo      // jaeger_sammler: action layout, default board, camps, tile kinds, scoring
}

// IllegalMove names the first move the oracle refused.
type IllegalMove struct {
	Index   int
	Reason  string
	Message string
}

// Evaluation is the oracle's answer.
type Evaluation struct {
	Legal      bool
	Illegal    *IllegalMove // set when Legal is false; State is then before that move
	State      *MatchState
	Events     []*Event
	LegalMoves []LegalMove
}

// SimulationRequest asks for random games played in the server's core.
type SimulationRequest struct {
	Game    string
	Players int
	Games   int64
	Seed    uint64
}

// SimulationProgress is the running total of a simulation.
type SimulationProgress struct {
	GamesDone      int64
	Moves          int64
	MeanScores     []float64
	Wins           []int64
	GamesPerSecond float64
	Done           bool
}

// Occupant is a piece put on a zone (global id: tile*10 + local) of the tile being placed.
type Occupant struct {
	Hut  bool // false: a meeple
	Zone int32
}

// CarcassonneMove builds a carcassonne_hg move; occupant and retake may be nil.
func CarcassonneMove(x, y, rotation int32, occupant *Occupant, retake *int32) *Move {
	m := &pb.CarcassonneMove{X: x, Y: y, Rotation: rotation, Retake: retake}
	if occupant != nil {
		kind := pb.PieceKind_PIECE_KIND_MEEPLE
		if occupant.Hut {
			kind = pb.PieceKind_PIECE_KIND_HUT
		}
		m.Occupant = &pb.CarcassonneOccupant{Kind: kind, Zone: occupant.Zone}
	}
	return &Move{Game: &pb.Move_Carcassonne{Carcassonne: m}}
}

// Step is one step of a Jäger und Sammler character; Dst nil: it leaves the board.
type Step struct {
	Src int32
	Dst *int32
}

// JaegerMove builds a jaeger_sammler move.
func JaegerMove(steps ...Step) *Move {
	m := &pb.JaegerMove{}
	for _, s := range steps {
		m.Steps = append(m.Steps, &pb.JaegerStep{Src: s.Src, Dst: s.Dst})
	}
	return &Move{Game: &pb.Move_Jaeger{Jaeger: m}}
}

// JaegerSteps reads the steps of a jaeger_sammler move (nil for another game's move).
func JaegerSteps(m *Move) []Step {
	var out []Step
	for _, s := range m.GetJaeger().GetSteps() {
		out = append(out, Step{Src: s.GetSrc(), Dst: s.Dst})
	}
	return out
}

// -- requests -----------------------------------------------------------------------------------

func configPB(c GameConfig) (*pb.GameConfig, error) {
	out := &pb.GameConfig{Game: c.Game, Players: int32(c.Players), Seed: c.Seed, Hints: c.Hints}
	seats := make([]int, 0, len(c.Bots))
	for seat := range c.Bots {
		seats = append(seats, seat)
	}
	sort.Ints(seats)
	for _, seat := range seats {
		out.Bots = append(out.Bots, &pb.BotSeat{Seat: int32(seat), Bot: c.Bots[seat]})
	}
	given := 0
	if c.Carcassonne != nil {
		out.Options = &pb.GameConfig_Carcassonne{Carcassonne: c.Carcassonne}
		given++
	}
	if c.Jaeger != nil {
		out.Options = &pb.GameConfig_Jaeger{Jaeger: c.Jaeger}
		given++
	}
	if c.JSON != nil {
		b, err := json.Marshal(c.JSON)
		if err != nil {
			return nil, err
		}
		out.Options = &pb.GameConfig_Json{Json: string(b)}
		given++
	}
	if given > 1 {
		return nil, errors.New("hunters: GameConfig takes at most one of Carcassonne, Jaeger and JSON options")
	}
	return out, nil
}

func createMatchPB(c GameConfig) (*pb.CreateMatchRequest, error) {
	cfg, err := configPB(c)
	return &pb.CreateMatchRequest{Config: cfg}, err
}

func getMatchPB(id string) *pb.GetMatchRequest         { return &pb.GetMatchRequest{MatchId: id} }
func legalMovesPB(id string) *pb.ListLegalMovesRequest { return &pb.ListLegalMovesRequest{MatchId: id} }
func recordPB(id string) *pb.GetRecordRequest          { return &pb.GetRecordRequest{MatchId: id} }
func deleteMatchPB(id string) *pb.DeleteMatchRequest   { return &pb.DeleteMatchRequest{MatchId: id} }
func listMatchesPB(o ListMatchesOptions) *pb.ListMatchesRequest {
	return &pb.ListMatchesRequest{Game: o.Game, PageSize: int32(o.PageSize), PageToken: o.PageToken}
}
func watchPB(id string, from int64) *pb.WatchMatchRequest {
	return &pb.WatchMatchRequest{MatchId: id, FromVersion: from}
}

func playMovePB(matchID string, p Play, expected *int64, requestID string, changesOnly bool) (*pb.PlayMoveRequest, error) {
	req := &pb.PlayMoveRequest{MatchId: matchID, ExpectedVersion: expected, RequestId: requestID, ChangesOnly: changesOnly}
	switch {
	case p.move != nil:
		req.Play = &pb.PlayMoveRequest_Move{Move: p.move}
	case p.action != nil:
		req.Play = &pb.PlayMoveRequest_Action{Action: *p.action}
	default:
		return nil, errors.New("hunters: an empty Play (use ByMove or ByAction)")
	}
	return req, nil
}

func evaluatePB(c GameConfig, moves []*Move, includeLegal bool) (*pb.EvaluateRequest, error) {
	cfg, err := configPB(c)
	return &pb.EvaluateRequest{Config: cfg, Moves: moves, IncludeLegalMoves: includeLegal}, err
}

func simulatePB(r SimulationRequest) *pb.SimulateGamesRequest {
	return &pb.SimulateGamesRequest{Game: r.Game, Players: int32(r.Players), Games: r.Games, Seed: r.Seed}
}

func listGamesPB() *pb.ListGamesRequest             { return &pb.ListGamesRequest{} }
func gameInfoPB(game string) *pb.GetGameInfoRequest { return &pb.GetGameInfoRequest{Game: game} }

// -- responses ----------------------------------------------------------------------------------

func matchInfo(m *pb.Match) MatchInfo {
	out := MatchInfo{MatchID: m.GetMatchId(), Game: m.GetConfig().GetGame(), Players: int(m.GetConfig().GetPlayers()),
		Version: m.GetVersion(), State: m.GetState(), Status: m.GetStatus(), Seed: m.GetConfig().Seed,
		Bots: map[int]string{}, Hints: m.GetConfig().GetHints()}
	if ts := m.GetCreatedAt(); ts != nil {
		out.CreatedAt = ts.AsTime()
	}
	for _, b := range m.GetConfig().GetBots() {
		out.Bots[int(b.GetSeat())] = b.GetBot()
	}
	return out
}

func matchPage(r *pb.ListMatchesResponse) *MatchPage {
	out := &MatchPage{NextPageToken: r.GetNextPageToken()}
	for _, m := range r.GetMatches() {
		out.Matches = append(out.Matches, matchInfo(m))
	}
	return out
}

func createdMatch(r *pb.CreateMatchResponse) *CreatedMatch {
	return &CreatedMatch{MatchInfo: matchInfo(r.GetMatch()), SeatTokens: r.GetSeatTokens(), AdminToken: r.GetAdminToken()}
}

func legalMoves(ms []*pb.LegalMove) []LegalMove {
	out := make([]LegalMove, len(ms))
	for i, m := range ms {
		out[i] = LegalMove{Move: m.GetMove(), Action: m.GetAction()}
	}
	return out
}

func legalMovesOf(r *pb.ListLegalMovesResponse) *LegalMoves {
	return &LegalMoves{Version: r.GetVersion(), Player: int(r.GetPlayer()), Moves: legalMoves(r.GetMoves())}
}

func playResult(r *pb.PlayMoveResponse) *PlayResult {
	out := &PlayResult{Version: r.GetVersion(), Events: r.GetEvents(), State: r.GetState(), IsOver: IsOver(r.GetState()),
		Winners: []int{}}
	for _, w := range r.GetState().GetWinners() {
		out.Winners = append(out.Winners, int(w))
	}
	return out
}

func matchEvent(e *pb.WatchMatchResponse) *MatchEvent {
	seat := -1
	if e.Seat != nil {
		seat = int(*e.Seat)
	}
	return &MatchEvent{MatchID: e.GetMatchId(), Version: e.GetVersion(), Seat: seat, Move: e.GetMove(),
		Events: e.GetEvents(), State: e.GetState(), MatchOver: IsOver(e.GetState())}
}

func evaluation(r *pb.EvaluateResponse) *Evaluation {
	out := &Evaluation{Legal: r.GetLegal(), State: r.GetState(), Events: r.GetEvents(), LegalMoves: legalMoves(r.GetLegalMoves())}
	if !r.GetLegal() && r.GetIllegal() != nil {
		i := r.GetIllegal()
		out.Illegal = &IllegalMove{Index: int(i.GetIndex()), Reason: i.GetReason(), Message: i.GetMessage()}
	}
	return out
}

func progress(p *pb.SimulateGamesResponse) *SimulationProgress {
	return &SimulationProgress{GamesDone: p.GetGamesDone(), Moves: p.GetMoves(), MeanScores: p.GetMeanScores(),
		Wins: p.GetWins(), GamesPerSecond: p.GetGamesPerSecond(), Done: p.GetDone()}
}

func gameInfo(r *pb.GetGameInfoResponse) *GameInfo {
	return &GameInfo{Summary: r.GetSummary(), Carcassonne: r.GetCarcassonne(), Jaeger: r.GetJaeger()}
}
