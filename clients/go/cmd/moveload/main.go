// Command moveload is the load generator of the workers bench (bench/test_service_bench.py): each
// client, on a connection of its own, creates its matches and then plays the PlayMove requests the
// bench prepared for them (serialized before the timed part), all clients at once, so that the
// client side costs little CPU and the server's scaling shows. It reads one JSON object on stdin
// (without a newline after it):
//
//	{"address": "127.0.0.1:50051", "seconds": 3, "clients": [{"matches": [{"config": "<GameConfig,
//	  base64>", "seats": [0, 1, ...], "requests": ["<PlayMoveRequest without match_id, base64>", ...]}]}]}
//
// creates every match, prints "ready", waits for a line on stdin, then each client plays its requests
// in order (each waits for its answer; request i with seat i's token) until it has played them all or
// `seconds` have passed (0: no limit), and it prints {"moves", "seconds", "cpu_seconds", "exhausted"}
// as JSON: the moves played, the time until the last client stopped, its own CPU time over that time,
// and how many clients ran out of requests before the time was up. A failed call ends it with status 1.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// raw passes prepared bytes through: no protobuf work in the timed part.
type raw struct{}

func (raw) Marshal(v interface{}) ([]byte, error) { return *(v.(*[]byte)), nil }
func (raw) Unmarshal(data []byte, v interface{}) error {
	*(v.(*[]byte)) = data
	return nil
}
func (raw) Name() string { return "proto" }

type match struct {
	Config   []byte   `json:"config"`
	Seats    []int    `json:"seats"`
	Requests [][]byte `json:"requests"`
}

type input struct {
	Address string  `json:"address"`
	Seconds float64 `json:"seconds"`
	Clients []struct {
		Matches []match `json:"matches"`
	} `json:"clients"`
}

type call struct {
	token string
	req   []byte
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "moveload:", err)
	os.Exit(1)
}

// prepare creates the client's matches on its connection and returns its calls, serialized.
func prepare(ctx context.Context, conn *grpc.ClientConn, matches []match) ([]call, error) {
	stub := pb.NewMatchServiceClient(conn)
	var calls []call
	for _, m := range matches {
		config := &pb.GameConfig{}
		if err := proto.Unmarshal(m.Config, config); err != nil {
			return nil, err
		}
		created, err := stub.CreateMatch(ctx, &pb.CreateMatchRequest{Config: config})
		if err != nil {
			return nil, err
		}
		for i, b := range m.Requests {
			req := &pb.PlayMoveRequest{}
			if err := proto.Unmarshal(b, req); err != nil {
				return nil, err
			}
			req.MatchId = created.Match.MatchId
			out, err := proto.Marshal(req)
			if err != nil {
				return nil, err
			}
			calls = append(calls, call{created.SeatTokens[m.Seats[i]], out})
		}
	}
	return calls, nil
}

func main() {
	var in input
	if err := json.NewDecoder(bufio.NewReaderSize(os.Stdin, 1<<20)).Decode(&in); err != nil {
		fail(err)
	}
	ctx := context.Background()
	conns := make([]*grpc.ClientConn, len(in.Clients))
	calls := make([][]call, len(in.Clients))
	for i, c := range in.Clients {
		conn, err := grpc.DialContext(ctx, in.Address, grpc.WithInsecure(), grpc.WithBlock())
		if err != nil {
			fail(err)
		}
		defer conn.Close()
		conns[i] = conn
		if calls[i], err = prepare(ctx, conn, c.Matches); err != nil {
			fail(err)
		}
	}
	fmt.Println("ready")
	// the go line: nothing after the JSON was buffered above, since none was sent before "ready"
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		fail(err)
	}
	cpu0, t0 := cpuSeconds(), time.Now()
	deadline := t0.Add(time.Duration(in.Seconds * float64(time.Second)))
	var wg sync.WaitGroup
	errs := make([]error, len(in.Clients))
	played := make([]int, len(in.Clients))
	for i := range conns {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for _, c := range calls[i] {
				if in.Seconds > 0 && !time.Now().Before(deadline) {
					return
				}
				req, resp := c.req, []byte(nil)
				cctx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.token)
				if err := conns[i].Invoke(cctx, "/hunters.v1.MatchService/PlayMove", &req, &resp,
					grpc.ForceCodec(raw{})); err != nil {
					errs[i] = err
					return
				}
				played[i]++
			}
		}(i)
	}
	wg.Wait()
	seconds, cpu := time.Since(t0).Seconds(), cpuSeconds()-cpu0
	moves, exhausted := 0, 0
	for i := range calls {
		if errs[i] != nil {
			fail(errs[i])
		}
		moves += played[i]
		if played[i] == len(calls[i]) {
			exhausted++
		}
	}
	out, _ := json.Marshal(map[string]interface{}{
		"moves": moves, "seconds": seconds, "cpu_seconds": cpu, "exhausted": exhausted})
	fmt.Println(string(out))
}
