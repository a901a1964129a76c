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
	"fmt"
	"net"
	"os"
	"strings"
	"sync"

	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
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
	Seat                *int              `json:"seat"`
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
	Hints               bool              `json:"hints"`
	Version             *int64            `json:"version"`
	TopK                int               `json:"top_k"`
	Iterations          int               `json:"iterations"`
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
