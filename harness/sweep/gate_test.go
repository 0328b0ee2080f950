package sweep

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
)

func TestGate(t *testing.T) {
	ok := model.Sample{Responses: 1000, Success: 1000, StatusCounts: map[string]int64{"200": 1000}}
	reset := "read 127.0.0.1:8080: connection reset by peer"
	emfile := "connect 127.0.0.1:41234: too many open files (generator: RLIMIT_NOFILE 32 for 64 connections)"
	busy := `status 500 for GET /updates?queries=20: "database is locked (5) (SQLITE_BUSY)"`
	saturated := "the load generator's CPU set was saturated (≥ 90% busy): it measured the generator"
	cases := []struct {
		name   string
		s      model.Sample
		share  float64
		reason string // "" = passes
	}{
		{"all 200", ok, 1, ""},
		{"too few responses", model.Sample{Responses: 99, Success: 99}, 1, "99 responses, fewer than the minimum 100"},
		{"exactly the minimum", model.Sample{Responses: 100, Success: 100}, 1, ""},
		{"one 500 at 100%, no example", model.Sample{Responses: 1000, Success: 999, StatusCounts: map[string]int64{"200": 999, "500": 1}, Errors: map[string]int64{"status": 1}}, 1,
			"success 99.900% below the gate 100% (200: 999, 500: 1)"},
		{"10% 500s at 100%", model.Sample{Responses: 1000, Success: 900, StatusCounts: map[string]int64{"200": 900, "500": 100}, Errors: map[string]int64{"status": 100},
			Examples: map[string]string{"status": "status 500 for GET /json"}}, 1,
			"success 90.000% below the gate 100% (200: 900, 500: 100; e.g. status 500 for GET /json)"},
		{"10% 500s under a 90% gate", model.Sample{Responses: 1000, Success: 900, Errors: map[string]int64{"status": 100}}, 0.9, ""},
		{"socket errors", model.Sample{Responses: 1000, Success: 1000, SocketErrors: 4, Errors: map[string]int64{"read": 3, "timeout": 1},
			Examples: map[string]string{"read": reset, "timeout": "read 127.0.0.1:8080: no complete response within 500ms"}}, 1,
			"socket errors: read 3, timeout 1 (e.g. " + reset + ")"},
		{"socket errors in report order, example of the first class that has one", model.Sample{Responses: 1000, Success: 1000, SocketErrors: 4,
			Errors:   map[string]int64{"timeout": 1, "write": 1, "connect": 2, "status": 5, "check": 1},
			Examples: map[string]string{"timeout": "timeout example", "write": "write 127.0.0.1:8080: broken pipe", "check": "check GET /json: bad"}}, 0.5,
			"socket errors: connect 2, write 1, timeout 1 (e.g. write 127.0.0.1:8080: broken pipe); 1 response failed its check under load (e.g. check GET /json: bad)"},
		{"socket errors without classes", model.Sample{Responses: 1000, Success: 1000, SocketErrors: 2}, 1, "socket errors: 2"},
		{"check failed under load", model.Sample{Responses: 1000, Success: 1000, Errors: map[string]int64{"check": 3},
			Examples: map[string]string{"check": "check GET /json: body 52428800 bytes, over the 1 MiB kept for a check"}}, 1,
			"3 responses failed their check under load (e.g. check GET /json: body 52428800 bytes, over the 1 MiB kept for a check)"},
		{"every response rendered", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(1003)}, 1, ""},
		{"cached output", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(12)}, 1, "12 renders for 1000 responses: output served without rendering"},
		{"nothing rendered", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(0)}, 1, "0 renders for 1000 responses: output served without rendering"},
		{"cache hits by render counts", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(0), Cache: &model.CacheHits{By: "render counts", Checked: 1000}}, 1, ""},
		{"cache misses by render counts", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(17), Cache: &model.CacheHits{By: "render counts", Checked: 1000, Misses: 17}}, 1,
			"cache hit not confirmed: 17 renders during the window for 1000 responses (render counts: a hit renders nothing)"},
		{"one cache miss by render counts", model.Sample{Responses: 1000, Success: 1000, Renders: ptr(1), Cache: &model.CacheHits{By: "render counts", Checked: 1000, Misses: 1}}, 1,
			"cache hit not confirmed: 1 render during the window for 1000 responses (render counts: a hit renders nothing)"},
		{"cache hits by header", model.Sample{Responses: 1000, Success: 1000, Cache: &model.CacheHits{By: "x-nextjs-cache: HIT", Checked: 14}}, 1, ""},
		{"cache misses by header", model.Sample{Responses: 1000, Success: 1000, Cache: &model.CacheHits{By: "x-nextjs-cache: HIT", Checked: 14, Misses: 3}}, 1,
			"cache hit not confirmed: 3 of 14 checked responses lacked x-nextjs-cache: HIT"},
		{"no header checked", model.Sample{Responses: 1000, Success: 1000, Cache: &model.CacheHits{By: "x-nextjs-cache: HIT"}}, 1,
			"cache hit not confirmed: no response checked for x-nextjs-cache: HIT"},
		{"generator errors", model.Sample{Responses: 1000, Success: 1000, Errors: map[string]int64{"generator": 12}, Examples: map[string]string{"generator": emfile}}, 1,
			"harness fault, not the server's: generator 12 (e.g. " + emfile + ")"},
		{"generator errors and too few responses", model.Sample{Responses: 40, Success: 40, Errors: map[string]int64{"generator": 12}, Examples: map[string]string{"generator": emfile}}, 1,
			"harness fault, not the server's: generator 12 (e.g. " + emfile + "); the sample also failed: 40 responses, fewer than the minimum 100"},
		{"saturated generator", model.Sample{Responses: 1000, Success: 1000, GeneratorSaturated: true}, 1, "harness fault, not the server's: " + saturated},
		{"saturated link", model.Sample{Responses: 1000, Success: 1000, LinkSaturated: true}, 1,
			"harness fault, not the server's: the network link was saturated (response bodies ≥ 90% of its measured capacity): it measured the link"},
		{"SQLITE_BUSY in the status example", model.Sample{Responses: 1000, Success: 900, StatusCounts: map[string]int64{"200": 900, "500": 100}, Errors: map[string]int64{"status": 100},
			Examples: map[string]string{"status": busy}}, 1,
			"harness fault, not the server's: SQLITE_BUSY from the server's database copy (e.g. " + busy + "); the sample also failed: success 90.000% below the gate 100% (200: 900, 500: 100; e.g. " + busy + ")"},
		{"SQLITE_BUSY only in the server log", model.Sample{Responses: 1000, Success: 1000, ServerLogFaults: 3}, 1,
			"harness fault, not the server's: SQLITE_BUSY from the server's database copy (the server log has 3 such lines)"},
		{"database is locked in a check example and the log", model.Sample{Responses: 1000, Success: 1000, Errors: map[string]int64{"check": 1}, ServerLogFaults: 1,
			Examples: map[string]string{"check": "check GET /db: Database is locked"}}, 1,
			"harness fault, not the server's: SQLITE_BUSY from the server's database copy (e.g. check GET /db: Database is locked; the server log has 1 such line); the sample also failed: 1 response failed its check under load (e.g. check GET /db: Database is locked)"},
		{"every harness fault at once", model.Sample{Responses: 1000, Success: 1000, GeneratorSaturated: true, ServerLogFaults: 2,
			Errors: map[string]int64{"generator": 1}, Examples: map[string]string{"generator": emfile}}, 1,
			"harness fault, not the server's: generator 1 (e.g. " + emfile + "); " + saturated + "; SQLITE_BUSY from the server's database copy (the server log has 2 such lines)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := Gate(c.s, c.share, 100)
			if g.Passed != (c.reason == "") || g.Reason != c.reason {
				t.Errorf("gate %+v\nwant reason %q", g, c.reason)
			}
		})
	}
}

// A sample that failed the gate on its saturated generator CPU set alone is
// generator-bound (model.Sample.GeneratorBound: a lower bound in the report);
// one that also failed another check, or whose generator errored, is not.
func TestGateGeneratorBound(t *testing.T) {
	for _, c := range []struct {
		name string
		s    model.Sample
		want bool
	}{
		{"saturated alone", model.Sample{Responses: 1000, Success: 1000, GeneratorSaturated: true}, true},
		{"saturated and one 500", model.Sample{Responses: 1000, Success: 999, StatusCounts: map[string]int64{"200": 999, "500": 1}, GeneratorSaturated: true}, false},
		{"saturated and generator errors", model.Sample{Responses: 1000, Success: 1000, GeneratorSaturated: true, Errors: map[string]int64{GeneratorClass: 1}}, false},
		{"saturated link", model.Sample{Responses: 1000, Success: 1000, LinkSaturated: true}, false},
		{"passed", model.Sample{Responses: 1000, Success: 1000}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			s.Gate = Gate(s, 1, 100)
			if got := s.GeneratorBound(); got != c.want {
				t.Errorf("generator-bound %v, want %v (gate %+v)", got, c.want, s.Gate)
			}
		})
	}
}

// Every class the load generator counts fails the gate, with its example
// quoted, so a class added to load.Classes (such as "generator") cannot
// slip through unnoticed.
func TestGateFailsEveryLoadClass(t *testing.T) {
	for _, c := range load.Classes {
		r := &load.Result{Window: time.Second, Responses: 1000, Success: 1000, StatusCounts: map[int]int64{200: 1000},
			Errors: map[load.Class]int64{c: 1}, Examples: map[load.Class]string{c: "example of " + string(c)}}
		if c == load.Status {
			r.Success, r.StatusCounts = 999, map[int]int64{200: 999, 500: 1}
		}
		s, err := FromResult(model.Key{Test: "json"}, r)
		if err != nil {
			t.Fatal(err)
		}
		g := Gate(s, 1, 100)
		if g.Passed || !strings.Contains(g.Reason, "(e.g. example of "+string(c)+")") && !strings.Contains(g.Reason, "; e.g. example of "+string(c)+")") {
			t.Errorf("class %s: gate %+v, want a failure quoting its example", c, g)
		}
	}
}

func TestGateClipsExamples(t *testing.T) {
	long := "check GET /fortunes: line 1\nline 2x" + strings.Repeat("é", 200) // 35 + 400 bytes
	s := model.Sample{Responses: 1000, Success: 1000, Errors: map[string]int64{"check": 1}, Examples: map[string]string{"check": long}}
	// "\n" becomes the two bytes `\n`: 36 bytes, then 132 "é" (264 bytes) end
	// at byte 300; the example is cut there.
	want := "1 response failed its check under load (e.g. check GET /fortunes: line 1\\nline 2x" + strings.Repeat("é", 132) + "…)"
	if g := Gate(s, 1, 100); g.Reason != want {
		t.Errorf("reason %q\nwant   %q", g.Reason, want)
	}
	odd := "check GET /fortunes: line 1\r\nline 2" + strings.Repeat("é", 200) // escaped 37 bytes: the 132nd é straddles byte 300
	s.Examples["check"] = odd
	want = "1 response failed its check under load (e.g. check GET /fortunes: line 1\\r\\nline 2" + strings.Repeat("é", 131) + "…)"
	if g := Gate(s, 1, 100); g.Reason != want {
		t.Errorf("reason %q\nwant   %q", g.Reason, want)
	}
}

func TestSkipped(t *testing.T) {
	k := model.Key{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "json", Type: "json", Connections: 4, Pipeline: 1, Engine: "raw", Round: 1}
	s := Skipped(k, "the server exited during json c=2 in round 1 (exit status 2)")
	want := "not measured: the server exited during json c=2 in round 1 (exit status 2)"
	if s.Key != k || s.Window != 0 || s.Responses != 0 || s.RPS != 0 || s.Histogram != nil || s.Gate.Passed || s.Gate.Reason != want {
		t.Fatalf("skipped sample %+v", s)
	}
	measured := model.Sample{Key: k, Responses: 500, RPS: 1000, Gate: model.GateResult{Passed: true}}
	measured.Connections = 2
	p := model.PeaksOf([]model.Sample{measured, s}).List[0]
	if !p.OK || p.Level.Connections != 2 || len(p.Levels) != 2 || p.Levels[1].Eligible {
		t.Errorf("peak %+v, want c=2 with c=4 not eligible", p)
	}
	if p := model.PeaksOf([]model.Sample{s}).List[0]; p.OK || p.Reason != "no level passed the gate in every round (4 connections, round 1: "+want+")" {
		t.Errorf("peak of a skipped level: %+v", p)
	}
}

func TestServerLogFaultsJSON(t *testing.T) {
	b, err := json.Marshal(model.Sample{Responses: 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "server_log_faults") {
		t.Errorf("0 log faults written: %s", b)
	}
	b, err = json.Marshal(model.Sample{Responses: 1, ServerLogFaults: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"server_log_faults":3,`) {
		t.Errorf("3 log faults missing: %s", b)
	}
	var back model.Sample
	if err := json.Unmarshal(b, &back); err != nil || back.ServerLogFaults != 3 {
		t.Errorf("read back %d (%v), want 3", back.ServerLogFaults, err)
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
	s, err := FromResult(model.Key{ID: model.ID{Framework: "f"}, Test: "json"}, r)
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

// TestLinkSaturated: response bodies at 90% or more of the measured link
// capacity over the window; no capacity measured (one host) never is.
func TestLinkSaturated(t *testing.T) {
	for _, c := range []struct {
		bytes        int64
		window, link float64
		want         bool
	}{
		{900, 1, 1000, true},
		{899, 1, 1000, false},
		{1800, 2, 1000, true},
		{1 << 40, 1, 0, false},
		{1000, 0, 1000, false},
	} {
		if got := LinkSaturated(c.bytes, c.window, c.link); got != c.want {
			t.Errorf("%d bytes in %g s on %g B/s: %v, want %v", c.bytes, c.window, c.link, got, c.want)
		}
	}
}
