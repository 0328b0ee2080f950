package report

import (
	"bytes"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestSummary(t *testing.T) {
	s := model.Sample{
		Key:    model.Key{Engine: "raw", Connections: 4, Rate: 1000, Pipeline: 1},
		Window: 10, Responses: 10000, Success: 9990, RPS: 1000,
		StatusCounts: map[string]int64{"200": 9990, "500": 10},
		Errors:       map[string]int64{"status": 10, "check": 1},
		Examples:     map[string]string{"status": "status 500 for GET /db", "check": "check GET /db: bad body"},
		Checked:      104, CheckSeed: 42,
		Latency:      model.Latency{P50: 0.1, P90: 0.2, P99: 900, P999: 1000, Max: 1001},
		Uncorrected:  &model.Latency{P50: 0.1, P90: 0.2, P99: 0.5, P999: 1, Max: 1000},
		GeneratorCPU: 0.5,
	}
	var b bytes.Buffer
	if err := Summary(&b, "http://127.0.0.1:8080/db", s); err != nil {
		t.Fatal(err)
	}
	want := `GET http://127.0.0.1:8080/db
  engine raw, constant rate 1000 requests/s over 4 connections, 10s window
  responses   10,000 in the window, 1,000 RPS, 9,990 status 200
  statuses    200 9990, 500 10
  errors      check 1, status 10
    check: check GET /db: bad body
    status: status 500 for GET /db
  checked     104 of 10,000 responses under load (1.0%), 1 failed; chosen at random, seed 42
  corrected   p50 0.100 ms, p90 0.200, p99 900.000, p99.9 1000.000, max 1001.000 ms
  uncorrected p50 0.100 ms, p90 0.200, p99 0.500, p99.9 1.000, max 1000.000 ms
  generator   0.50 s CPU (50.0 µs per response), saturated: no
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// A closed-loop page sample with TTFB and a probe that saw errors.
func TestSummaryTTFBAndProbe(t *testing.T) {
	s := model.Sample{
		Key:    model.Key{Engine: "raw", Connections: 2, Pipeline: 1},
		Window: 10, Responses: 320, Success: 320, RPS: 32, Checked: 320,
		Latency: model.Latency{P50: 61.2, P90: 62, P99: 90.5, P999: 91, Max: 91.25},
		TTFB:    &model.Latency{P50: 0.4, P90: 0.5, P99: 30.1, P999: 30.2, Max: 30.25},
		Probe: &model.Probe{Path: "/plaintext", Interval: 20, Responses: 260, Success: 259,
			Errors:   map[string]int64{"status": 1, "read": 1},
			Examples: map[string]string{"status": "status 503 for GET /plaintext", "read": "read 127.0.0.1:8080: connection reset by peer"},
			Latency:  model.Latency{P50: 45.5, P90: 58, P99: 59.9, P999: 60, Max: 60.125}},
		GeneratorCPU: 0.032,
	}
	var b bytes.Buffer
	if err := Summary(&b, "http://127.0.0.1:8080/ssr?rows=1000", s); err != nil {
		t.Fatal(err)
	}
	want := `GET http://127.0.0.1:8080/ssr?rows=1000
  engine raw, 2 connections, pipeline depth 1, 10s window
  responses   320 in the window, 32 RPS, 320 status 200
  errors      none
  checked     320 of 320 responses under load (100%), 0 failed
  latency     p50 61.200 ms, p90 62.000, p99 90.500, p99.9 91.000, max 91.250 ms
  TTFB        p50 0.400 ms, p90 0.500, p99 30.100, p99.9 30.200, max 30.250 ms
  probe       GET /plaintext every 20 ms: 260 responses, 259 status 200, errors read 1, status 1; p50 45.500 ms, p99 59.900, max 60.125 ms
    probe read: read 127.0.0.1:8080: connection reset by peer
    probe status: status 503 for GET /plaintext
  generator   0.03 s CPU (100.0 µs per response), saturated: no
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// The report's Checks row: every response at method version 6, a share when
// some were not (engine hey, or a random choice), the old rule before.
func TestChecksText(t *testing.T) {
	all := []model.Sample{{Responses: 1000, Checked: 1000}, {Responses: 234, Checked: 234, Errors: map[string]int64{"check": 3}}}
	some := []model.Sample{{Responses: 1000, Checked: 1000}, {Responses: 2000, Checked: 20, CheckSeed: 9}, {Responses: 500}}
	cases := []struct {
		method  int
		samples []model.Sample
		want    string
	}{
		{6, all, "every counted response checked under load against its test's rule (1,234); 3 failed"},
		{6, some, "1,020 of 3,500 counted responses checked under load against their test's rule (29.1%; engine hey checks none); 1 sample checked a random share (its seed in results.json); 0 failed"},
		{5, all, "each connection's first response and 1 in 100 after it (method version 5)"},
	}
	for _, c := range cases {
		if got := checksText(c.method, c.samples); got != c.want {
			t.Errorf("method %d: %q, want %q", c.method, got, c.want)
		}
	}
}
