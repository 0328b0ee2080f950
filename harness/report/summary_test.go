package report

import (
	"bytes"
	"testing"

	"github.com/tfbench/tfbench/harness/sweep"
)

func TestSummary(t *testing.T) {
	s := sweep.Sample{
		Key:    sweep.Key{Engine: "raw", Connections: 4, Rate: 1000, Pipeline: 1},
		Window: 10, Responses: 10000, Success: 9990, RPS: 1000,
		StatusCounts: map[string]int64{"200": 9990, "500": 10},
		Errors:       map[string]int64{"status": 10, "check": 1},
		Examples:     map[string]string{"status": "status 500 for GET /db", "check": "check GET /db: bad body"},
		Checked:      104,
		Latency:      sweep.Latency{P50: 0.1, P90: 0.2, P99: 900, P999: 1000, Max: 1001},
		Uncorrected:  &sweep.Latency{P50: 0.1, P90: 0.2, P99: 0.5, P999: 1, Max: 1000},
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
  checked     104 responses under load, 1 failed
  corrected   p50 0.100 ms, p90 0.200, p99 900.000, p99.9 1000.000, max 1001.000 ms
  uncorrected p50 0.100 ms, p90 0.200, p99 0.500, p99.9 1.000, max 1000.000 ms
  generator   0.50 s CPU (50.0 µs per response), saturated: no
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
