package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/load"
)

func TestGate(t *testing.T) {
	ok := Sample{Responses: 1000, Success: 1000, StatusCounts: map[string]int64{"200": 1000}}
	cases := []struct {
		name   string
		s      Sample
		share  float64
		pass   bool
		reason string
	}{
		{"all 200", ok, 1, true, ""},
		{"too few responses", Sample{Responses: 99, Success: 99}, 1, false, "99 responses, fewer than the minimum 100"},
		{"exactly the minimum", Sample{Responses: 100, Success: 100}, 1, true, ""},
		{"one 500 at 100%", Sample{Responses: 1000, Success: 999, StatusCounts: map[string]int64{"200": 999, "500": 1}, Errors: map[string]int64{"status": 1}}, 1, false, "success 99.900% below the gate 100% (200: 999, 500: 1)"},
		{"10% 500s under a 90% gate", Sample{Responses: 1000, Success: 900, Errors: map[string]int64{"status": 100}}, 0.9, true, ""},
		{"socket error", Sample{Responses: 1000, Success: 1000, SocketErrors: 2, Errors: map[string]int64{"read": 1, "timeout": 1}}, 1, false, "socket errors: read 1, timeout 1"},
		{"check failed under load", Sample{Responses: 1000, Success: 1000, Errors: map[string]int64{"check": 3}}, 1, false, "3 responses failed their check under load"},
		{"every response rendered", Sample{Responses: 1000, Success: 1000, Renders: ptr(1003)}, 1, true, ""},
		{"cached output", Sample{Responses: 1000, Success: 1000, Renders: ptr(12)}, 1, false, "12 renders for 1000 responses: output served without rendering"},
		{"nothing rendered", Sample{Responses: 1000, Success: 1000, Renders: ptr(0)}, 1, false, "0 renders for 1000 responses"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := Gate(c.s, c.share, 100)
			if g.Passed != c.pass {
				t.Fatalf("passed %v, want %v (%s)", g.Passed, c.pass, g.Reason)
			}
			if c.reason != "" && !strings.Contains(g.Reason, c.reason) {
				t.Errorf("reason %q, want it to contain %q", g.Reason, c.reason)
			}
			if c.pass && g.Reason != "" {
				t.Errorf("passing sample has reason %q", g.Reason)
			}
		})
	}
}

func TestFromResult(t *testing.T) {
	h := hdrhistogram.New(1, 8_000_000, 3)
	for i := int64(1); i <= 1000; i++ {
		h.RecordValue(i * 10) // 10 µs .. 10 ms
	}
	r := &load.Result{
		Window: 2 * time.Second, Responses: 1000, Success: 990,
		StatusCounts: map[int]int64{200: 990, 500: 10},
		Errors:       map[load.Class]int64{load.Status: 10, load.Read: 2},
		Examples:     map[load.Class]string{load.Read: "read: reset"},
		Latency:      h,
	}
	s, err := FromResult(Key{Framework: "f", Test: "json"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if s.RPS != 500 || s.SocketErrors != 2 || s.StatusCounts["500"] != 10 || s.Errors["status"] != 10 || s.Examples["read"] != "read: reset" || s.Window != 2 {
		t.Errorf("sample %+v", s)
	}
	if s.Latency.P50 != 5.003 || s.Latency.Max != 10.007 {
		t.Errorf("latency %+v, want p50 5.003 ms and max 10.007 ms (HDR bucket upper bounds)", s.Latency)
	}
	back, err := hdrhistogram.Decode(s.Histogram)
	if err != nil || back.TotalCount() != 1000 {
		t.Errorf("stored histogram: %v, %d values", err, back.TotalCount())
	}
}

func ptr(n int64) *int64 { return &n }
