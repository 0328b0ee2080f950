package loadgencmp

import (
	"bytes"
	"math"
	"testing"
	"time"
)

func run(rps float64, responses int64, cpu, server float64) Run {
	return Run{
		Report:    Report{RPS: rps, Responses: responses},
		CPU:       time.Duration(cpu * float64(time.Second)),
		Wall:      10 * time.Second,
		ServerCPU: time.Duration(server * float64(time.Second)),
	}
}

// Two cells: one meets both targets (CPU per 100,000 requests 0.7 vs 0.8:
// ratio 0.875; equal RPS), one misses both (0.11 vs 0.10 s: 1.1; 0.9 × RPS).
func reportCells() []*Cell {
	return []*Cell{
		{
			Setting: Settings[0], Server: Length,
			Tfbench: []Run{run(100000, 1_000_000, 7, 9), run(110000, 1_100_000, 7.7, 9.5), run(90000, 900_000, 7.2, 8)},
			Wrk:     []Run{run(100000, 1_000_000, 8, 9), run(105000, 1_050_000, 8.4, 9), run(95000, 950_000, 8.55, 9)},
		},
		{
			Setting: Settings[1], Server: Chunked,
			Tfbench: []Run{{Report: Report{RPS: 900000, Responses: 9_000_000, Errors: 3}, CPU: 9900 * time.Millisecond, Wall: 10 * time.Second, ServerCPU: 6 * time.Second}},
			Wrk:     []Run{run(1_000_000, 10_000_000, 10, 6.5)},
		},
	}
}

func TestVerdict(t *testing.T) {
	cells := reportCells()
	if v := cells[0].Verdict(); math.Abs(v.RPSRatio-1) > 1e-9 || math.Abs(v.CPURatio-0.875) > 1e-9 || !v.RPSMet || !v.CPUMet {
		t.Errorf("cell 0: %+v, want RPS ratio 1, CPU ratio 0.875, both met", v)
	}
	if v := cells[1].Verdict(); math.Abs(v.RPSRatio-0.9) > 1e-9 || math.Abs(v.CPURatio-1.1) > 1e-9 || v.RPSMet || v.CPUMet {
		t.Errorf("cell 1: %+v, want RPS ratio 0.9, CPU ratio 1.1, neither met", v)
	}
	if v := (&Cell{}).Verdict(); !math.IsNaN(v.RPSRatio) || !math.IsNaN(v.CPURatio) || v.RPSMet || v.CPUMet {
		t.Errorf("empty cell: %+v, want NaN ratios, nothing met", v)
	}
}

func TestWrite(t *testing.T) {
	cfg := Config{Rounds: 3, Duration: 10 * time.Second, Generator: []int{0}, Server: []int{1}}
	var b bytes.Buffer
	all, err := Write(&b, cfg, reportCells())
	want := `tfbench load vs wrk: 3 interleaved rounds of 10s per generator, setting and server; generator CPUs 0 (wrk -t1), server CPUs 1

setting         server   generator  RPS median  RPS min–max          CPU s/100k req median  CPU s/100k req min–max  generator CPU use  server CPU use  errors
c=64 depth 1    length   tfbench    100,000     90,000–110,000       0.7000                 0.7000–0.8000           72%                90%             0
c=64 depth 1    length   wrk        100,000     95,000–105,000       0.8000                 0.8000–0.9000           84%                90%             0
c=256 depth 16  chunked  tfbench    900,000     900,000–900,000      0.1100                 0.1100–0.1100           99%                60%             3
c=256 depth 16  chunked  wrk        1,000,000   1,000,000–1,000,000  0.1000                 0.1000–0.1000           100%               65%             0

ratios tfbench/wrk of the medians; targets: RPS ratio >= 0.95, CPU per request ratio <= 1.00
setting         server   RPS ratio  RPS target  CPU/request ratio  CPU target
c=64 depth 1    length   1.000      PASS        0.875              PASS
c=256 depth 16  chunked  0.900      MISS        1.100              MISS

targets: MISS (RPS >= 0.95 × wrk's met in 1 of 2 cells; CPU per request <= wrk's met in 1 of 2 cells)
`
	if err != nil || all || b.String() != want {
		t.Errorf("Write: all %v, %v, wrote\n%s\nwant\n%s", all, err, b.String(), want)
	}
}
