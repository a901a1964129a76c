// Package hunters is a typed client of the hunters gRPC service: matches played seat by seat, the
// stateless rules oracle and in-server simulation. Refusals are *Error values with a reason.
package hunters

import (
	"context"
	"encoding/json"
	"io"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// RPCMethods names the facade method of every RPC of the contract, by full method name: each RPC of
// hunters.v1 has one (TestFacadeCoversContract checks this against the generated descriptors).
var RPCMethods = map[string]string{
	"hunters.v1.MatchService.CreateMatch":             "CreateMatch",
	"hunters.v1.MatchService.GetMatch":                "GetMatch",
	"hunters.v1.MatchService.ListMatches":             "ListMatches",
	"hunters.v1.MatchService.DeleteMatch":             "DeleteMatch",
	"hunters.v1.MatchService.ListLegalMoves":          "LegalMoves",
	"hunters.v1.MatchService.PlayMove":                "Play",
	"hunters.v1.MatchService.WatchMatch":              "Watch",
	"hunters.v1.MatchService.GetRecord":               "GetRecord",
	"hunters.v1.MatchService.PlaySeat":                "PlaySeat",
	"hunters.v1.MatchService.RequestReview":           "RequestReview",
	"hunters.v1.MatchService.GetReview":               "GetReview",
	"hunters.v1.OracleService.Evaluate":               "Evaluate",
	"hunters.v1.OracleService.SimulateGames":          "Simulate",
	"hunters.v1.OracleService.Perft":                  "Perft",
	"hunters.v1.OracleService.ListConformanceVectors": "ConformanceVectors",
	"hunters.v1.OracleService.GetConformanceVectors":  "ConformanceVectorFile",
	"hunters.v1.OracleService.Analyze":                "Analyze",
	"hunters.v1.GameService.ListGames":                "ListGames",
	"hunters.v1.GameService.GetGameInfo":              "GameInfo",
}

// DefaultTimeout is a new Client's Timeout.
const DefaultTimeout = 30 * time.Second

// Client speaks to one server. It is safe for concurrent use.
type Client struct {
	// Timeout is the deadline of each unary call, and of each try of a retried one (and of Perft
	// unless PerftRequest.Timeout says otherwise); 0: none. The ctx's own deadline applies too: the
	// earlier wins. Streams (Watch, WaitTurn, Seat, PlaySeat, Simulate) have only the ctx's.
	Timeout     time.Duration
	conn        *grpc.ClientConn
	matches     pb.MatchServiceClient
	oracle      pb.OracleServiceClient
	games       pb.GameServiceClient
	createToken string
}

// Dial connects to addr ("host:port"), in plain text unless opts say otherwise.
func Dial(ctx context.Context, addr string, opts ...grpc.DialOption) (*Client, error) {
	conn, err := grpc.DialContext(ctx, addr, append([]grpc.DialOption{grpc.WithInsecure()}, opts...)...)
	if err != nil {
		return nil, err
	}
	c := New(conn)
	c.conn = conn
	return c, nil
}

// New uses a connection of your own (Close then leaves it open).
func New(conn grpc.ClientConnInterface) *Client {
	return &Client{matches: pb.NewMatchServiceClient(conn), oracle: pb.NewOracleServiceClient(conn),
		games: pb.NewGameServiceClient(conn), Timeout: DefaultTimeout}
}

// WithCreateToken is a copy of c whose CreateMatch presents the operator's token, for a server
// started with one (`hunters serve --create-token-file`); it shares c's connection.
func (c *Client) WithCreateToken(token string) *Client {
	out := *c
	out.conn = nil // Close of the copy leaves the connection to c
	out.createToken = token
	return &out
}

// Close closes the connection made by Dial.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

func withToken(ctx context.Context, token string) context.Context {
	if token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// CreateMatch creates a match; the reply holds one token per seat and the admin token. Never
// retried: the contract has no request id for it.
func (c *Client) CreateMatch(ctx context.Context, cfg GameConfig) (*CreatedMatch, error) {
	req, err := createMatchPB(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.CreateMatch(withToken(ctx, c.createToken), req)
	if err != nil {
		return nil, wrap(err)
	}
	return createdMatch(r), nil
}

// GetMatch reads a match (never the hidden draw order).
func (c *Client) GetMatch(ctx context.Context, matchID string) (*MatchInfo, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.GetMatch(ctx, getMatchPB(matchID))
	if err != nil {
		return nil, wrap(err)
	}
	m := matchInfo(r.GetMatch())
	return &m, nil
}

// ListMatches reads one page of the stored matches, oldest first; AllMatches reads every page.
func (c *Client) ListMatches(ctx context.Context, o ListMatchesOptions) (*MatchPage, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.ListMatches(ctx, listMatchesPB(o))
	if err != nil {
		return nil, wrap(err)
	}
	return matchPage(r), nil
}

// MatchIterator reads every stored match, page after page (AllMatches).
type MatchIterator struct {
	c     *Client
	ctx   context.Context
	o     ListMatchesOptions
	page  []MatchInfo
	ended bool
}

// AllMatches reads every stored match (of o.Game if given, o.PageSize a page), page after page:
// call Next until io.EOF. o.PageToken is where it starts ("" : the first page).
func (c *Client) AllMatches(ctx context.Context, o ListMatchesOptions) *MatchIterator {
	return &MatchIterator{c: c, ctx: ctx, o: o}
}

// Next is the next match; io.EOF after the last.
func (it *MatchIterator) Next() (*MatchInfo, error) {
	for len(it.page) == 0 {
		if it.ended {
			return nil, io.EOF
		}
		p, err := it.c.ListMatches(it.ctx, it.o)
		if err != nil {
			return nil, err
		}
		it.page, it.o.PageToken, it.ended = p.Matches, p.NextPageToken, p.NextPageToken == ""
	}
	m := it.page[0]
	it.page = it.page[1:]
	return &m, nil
}

// DeleteMatch deletes a match for good (its admin token); watchers' streams end. Retried when the
// reply is lost (a retry answered MATCH_NOT_FOUND: the lost try deleted it).
func (c *Client) DeleteMatch(ctx context.Context, matchID, adminToken string) error {
	return c.write(withToken(ctx, adminToken), Attempts, true, func(try context.Context) error {
		_, err := c.matches.DeleteMatch(try, deleteMatchPB(matchID))
		return err
	})
}

// LegalMoves lists the legal moves of the seat to move, each with its action code.
func (c *Client) LegalMoves(ctx context.Context, matchID string) (*LegalMoves, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.ListLegalMoves(ctx, legalMovesPB(matchID))
	if err != nil {
		return nil, wrap(err)
	}
	return legalMovesOf(r), nil
}

// PlayOptions tune Play.
type PlayOptions struct {
	ExpectedVersion *int64 // refuse (ABORTED / STALE_VERSION) unless the match is at this version
	RequestID       string // names the move for retries; made up when empty, so retries are always safe
	Attempts        int    // tries in all when the reply is lost (UNAVAILABLE, DEADLINE_EXCEEDED); 0 means Attempts (3)
	// ChangesOnly asks for a reply of what the move changed: its State has the fields every game
	// has (player, status, scores, winners, version) but not the game's view (the board). Cheaper
	// for the server; all a bot needs that reads the board from LegalMoves, its turn or GetMatch.
	ChangesOnly bool
}

// Version is a helper for PlayOptions.ExpectedVersion.
func Version(v int64) *int64 { return &v }

// Play plays a move for the seat of token. Every call carries a request id, so a reply lost on the
// way (UNAVAILABLE, or DEADLINE_EXCEEDED of one try, each try under the client's Timeout, while ctx
// is still alive) is retried safely: the server answers a repeated id with the first result and
// applies the move once. Refusals (stale version, not your turn, illegal move) are never retried.
func (c *Client) Play(ctx context.Context, matchID, token string, p Play, opts *PlayOptions) (*PlayResult, error) {
	var o PlayOptions
	if opts != nil {
		o = *opts
	}
	if o.RequestID == "" {
		o.RequestID = NewRequestID()
	}
	if o.Attempts <= 0 {
		o.Attempts = Attempts
	}
	req, err := playMovePB(matchID, p, o.ExpectedVersion, o.RequestID, o.ChangesOnly)
	if err != nil {
		return nil, err
	}
	var r *pb.PlayMoveResponse
	err = c.write(withToken(ctx, token), o.Attempts, false, func(try context.Context) (err error) {
		r, err = c.matches.PlayMove(try, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return playResult(r), nil
}

// Watcher receives the versions of a watched match.
type Watcher struct {
	stream pb.MatchService_WatchMatchClient
}

// Recv is the next version; io.EOF once the match is over (after its last version) or deleted.
func (w *Watcher) Recv() (*MatchEvent, error) {
	e, err := w.stream.Recv()
	if err != nil {
		if err == io.EOF {
			return nil, err
		}
		return nil, wrap(err)
	}
	return matchEvent(e), nil
}

// Watch streams every version of a match from fromVersion on, then live ones. Cancel ctx to stop.
func (c *Client) Watch(ctx context.Context, matchID string, fromVersion int64) (*Watcher, error) {
	s, err := c.matches.WatchMatch(ctx, watchPB(matchID, fromVersion))
	if err != nil {
		return nil, wrap(err)
	}
	return &Watcher{stream: s}, nil
}

// WaitTurn waits until seat is to move or the game is over, from fromVersion on (the version you
// know), and returns the version at which that holds: for a match with server-side bots
// (GameConfig.Bots), whose moves follow yours a moment later. (nil, io.EOF) if the match is deleted
// or abandoned first.
func (c *Client) WaitTurn(ctx context.Context, matchID string, seat int, fromVersion int64) (*MatchEvent, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream when we return early
	w, err := c.Watch(ctx, matchID, fromVersion)
	if err != nil {
		return nil, err
	}
	for {
		ev, err := w.Recv()
		if err != nil {
			return nil, err
		}
		if ev.MatchOver || int(ev.State.GetPlayer()) == seat {
			return ev, nil
		}
	}
}

// GetRecord is the game's record (JSON). Before the end it holds the draw order: the admin token is needed.
func (c *Client) GetRecord(ctx context.Context, matchID, adminToken string) (json.RawMessage, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.matches.GetRecord(withToken(ctx, adminToken), recordPB(matchID))
	if err != nil {
		return nil, wrap(err)
	}
	return json.RawMessage(r.GetRecordJson()), nil
}

// Evaluate applies moves to a new game of cfg (a seed or explicit options needed) without storing it.
func (c *Client) Evaluate(ctx context.Context, cfg GameConfig, moves []*Move, includeLegalMoves bool) (*Evaluation, error) {
	req, err := evaluatePB(cfg, moves, includeLegalMoves)
	if err != nil {
		return nil, err
	}
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.oracle.Evaluate(ctx, req)
	if err != nil {
		return nil, wrap(err)
	}
	return evaluation(r), nil
}

// Simulation receives the progress of SimulateGames.
type Simulation struct {
	stream pb.OracleService_SimulateGamesClient
}

// Recv is the next progress report (about every 5% of the games; the last has Done); io.EOF after it.
func (s *Simulation) Recv() (*SimulationProgress, error) {
	p, err := s.stream.Recv()
	if err != nil {
		if err == io.EOF {
			return nil, err
		}
		return nil, wrap(err)
	}
	return progress(p), nil
}

// Simulate plays random games in the server's core. Cancel ctx to stop them.
func (c *Client) Simulate(ctx context.Context, r SimulationRequest) (*Simulation, error) {
	s, err := c.oracle.SimulateGames(ctx, simulatePB(r))
	if err != nil {
		return nil, wrap(err)
	}
	return &Simulation{stream: s}, nil
}

// PerftRequest is a Perft count: the position (config and the moves to it), the depth and the mode.
type PerftRequest struct {
	Config   GameConfig
	Moves    []*Move
	Depth    int
	Chance   bool
	Divide   bool
	MaxNodes int64
	// Timeout is the count's deadline (0: the client's Timeout); the server stops the count there.
	Timeout time.Duration
}

// PerftCount receives the lines of a Perft: the divide lines (with Divide), then the total (Done).
type PerftCount struct {
	stream pb.OracleService_PerftClient
	cancel context.CancelFunc
}

// Recv is the next line; io.EOF after the total.
func (p *PerftCount) Recv() (*pb.PerftResponse, error) {
	r, err := p.stream.Recv()
	if err != nil {
		p.cancel()
		if err == io.EOF {
			return nil, err
		}
		return nil, wrap(err)
	}
	return r, nil
}

// Perft counts the leaves Depth decisions below a position in the server's core (docs/conformance.md),
// within r.Timeout (0: the client's Timeout) and ctx's deadline. Cancel ctx to stop the count.
func (c *Client) Perft(ctx context.Context, r PerftRequest) (*PerftCount, error) {
	cfg, err := configPB(r.Config)
	if err != nil {
		return nil, err
	}
	req := &pb.PerftRequest{Config: cfg, Moves: r.Moves, Depth: int32(r.Depth), Chance: r.Chance, Divide: r.Divide, MaxNodes: r.MaxNodes}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = c.Timeout
	}
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	s, err := c.oracle.Perft(ctx, req)
	if err != nil {
		cancel()
		return nil, wrap(err)
	}
	return &PerftCount{stream: s, cancel: cancel}, nil
}

// ConformanceVectors lists the conformance vector files the server publishes (game "" : every game's).
func (c *Client) ConformanceVectors(ctx context.Context, game string) ([]*pb.ConformanceVectorFile, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.oracle.ListConformanceVectors(ctx, &pb.ListConformanceVectorsRequest{Game: game})
	if err != nil {
		return nil, wrap(err)
	}
	return r.GetFiles(), nil
}

// ConformanceVectorFile returns one vector file: its JSON lines as text (version "": the newest).
func (c *Client) ConformanceVectorFile(ctx context.Context, game, name, version string) (string, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.oracle.GetConformanceVectors(ctx, &pb.GetConformanceVectorsRequest{Game: game, Name: name, Version: version})
	if err != nil {
		return "", wrap(err)
	}
	return r.GetContent(), nil
}

// ListGames lists every game the server plays: id, display name, player range, action-space size.
func (c *Client) ListGames(ctx context.Context) ([]*GameSummary, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.games.ListGames(ctx, listGamesPB())
	if err != nil {
		return nil, wrap(err)
	}
	return r.GetGames(), nil
}

// GameInfo is one game's static data: its action-code layout and components (every carcassonne_hg
// tile; the jaeger_sammler board, camps and tile kinds). Fixed while a server runs: fetch it once.
func (c *Client) GameInfo(ctx context.Context, game string) (*GameInfo, error) {
	ctx, cancel := c.deadline(ctx)
	defer cancel()
	r, err := c.games.GetGameInfo(ctx, gameInfoPB(game))
	if err != nil {
		return nil, wrap(err)
	}
	return gameInfo(r), nil
}
