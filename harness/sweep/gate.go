package sweep

import (
	"fmt"
	"sort"
	"strings"
)

// Gate applies the success gate (DESIGN.md, Measurement method) to s: a
// sample passes when it has at least minResponses counted responses, no
// socket errors (connect, read, write, timeout), and a share of successes
// (status 200) over counted responses of at least share (0..1; 1 = 100%).
// Responses that failed a check under load count as errors of their own
// class and fail the gate like socket errors. A sample with render counts
// (Renders not nil) fails when the server rendered the route fewer
// times than it answered (issue 5: renders = requests, no hidden caching).
func Gate(s Sample, share float64, minResponses int) GateResult {
	var why []string
	if s.Responses < int64(minResponses) {
		why = append(why, fmt.Sprintf("%d responses, fewer than the minimum %d", s.Responses, minResponses))
	}
	if s.SocketErrors > 0 {
		why = append(why, "socket errors: "+classList(s.Errors, "status"))
	}
	if n := s.Errors["check"]; n > 0 {
		why = append(why, fmt.Sprintf("%d responses failed their check under load", n))
	}
	if s.Renders != nil && *s.Renders < s.Responses {
		why = append(why, fmt.Sprintf("%d renders for %d responses: output served without rendering", *s.Renders, s.Responses))
	}
	if s.Responses > 0 {
		got := float64(s.Success) / float64(s.Responses)
		if got < share {
			why = append(why, fmt.Sprintf("success %.3f%% below the gate %.3g%% (%s)", 100*got, 100*share, statusList(s.StatusCounts)))
		}
	}
	if len(why) == 0 {
		return GateResult{Passed: true}
	}
	return GateResult{Reason: strings.Join(why, "; ")}
}

// classList renders error counts as "read 3, timeout 1", skipping the
// named classes, in name order.
func classList(m map[string]int64, skip ...string) string {
	var parts []string
	for k, v := range m {
		if v == 0 || contains(skip, k) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// statusList renders status counts as "200: 90, 500: 10".
func statusList(m map[string]int64) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
