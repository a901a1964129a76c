package main

// The transcript's lines: fields, values, errors, as every client's runner writes them
// (clients/scenario/README.md).

import (
	"fmt"
	"sort"
	"strings"

	pb "github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1"
	"github.com/hunters-engine/hunters-engine/clients/go/hunters"
)

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
