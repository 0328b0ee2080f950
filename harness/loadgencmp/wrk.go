package loadgencmp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/suite"
)

// WrkScript is the Lua script wrk pipelines with, as TFB's pipeline.lua
// does: init builds one batch of depth requests (args[1]; 1 if absent) with
// wrk.format, so they carry wrk's method, path and -H headers, and request
// returns that batch for every write. wrk then writes the batch in one
// write and counts each of its responses as a request.
const WrkScript = `-- loadgen-compare: pipelined batches for wrk (as TFB's pipeline.lua)
init = function(args)
  local depth = tonumber(args[1]) or 1
  local r = {}
  for i = 1, depth do
    r[i] = wrk.format()
  end
  req = table.concat(r)
end

request = function()
  return req
end
`

// WrkArgs returns wrk's arguments (without the program name) for one run
// against url: threads threads (the generator CPU count), conns connections,
// a window of d (whole seconds, as wrk's -d reads it), tfbench's fixed
// headers (Connection: keep-alive, User-Agent
// suite.UserAgent; wrk adds Host), and for depth > 1 the pipelining script at
// script with depth as its argument. Depth 1 runs without a script: wrk's
// static-request path is its cheapest.
func WrkArgs(url string, threads, conns, depth int, d time.Duration, script string) []string {
	args := []string{
		"-t", strconv.Itoa(threads),
		"-c", strconv.Itoa(conns),
		"-d", seconds(d),
		"-H", "Connection: keep-alive",
		"-H", "User-Agent: " + suite.UserAgent,
	}
	if depth > 1 {
		args = append(args, "-s", script, url, "--", strconv.Itoa(depth))
		return args
	}
	return append(args, url)
}

// seconds formats d as whole seconds ("10s"), the unit both generators'
// duration flags read.
func seconds(d time.Duration) string {
	return strconv.FormatInt(int64(d/time.Second), 10) + "s"
}

// Report is what a generator says about one run.
type Report struct {
	// RPS is the generator's own throughput figure, requests/s.
	RPS float64
	// Responses is how many responses it counted.
	Responses int64
	// Errors is its error count: for wrk socket errors plus non-2xx/3xx
	// responses; for tfbench the sum of its error classes.
	Errors int64
}

var (
	wrkRequests = regexp.MustCompile(`(?m)^\s*(\d+) requests in `)
	wrkRPS      = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)\s*$`)
	wrkSocket   = regexp.MustCompile(`(?m)^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)\s*$`)
	wrkStatus   = regexp.MustCompile(`(?m)^\s*Non-2xx or 3xx responses: (\d+)\s*$`)
)

// ParseWrk reads wrk 4's summary: "N requests in T, B read" (Responses),
// "Requests/sec: R" (RPS), and the optional "Socket errors: connect a, read
// b, write c, timeout d" and "Non-2xx or 3xx responses: n" lines (Errors:
// their sum). A missing requests or Requests/sec line is an error quoting
// the output.
func ParseWrk(out string) (Report, error) {
	var r Report
	m := wrkRequests.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("wrk output has no %q line:\n%s", "N requests in", out)
	}
	r.Responses, _ = strconv.ParseInt(m[1], 10, 64)
	m = wrkRPS.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("wrk output has no %q line:\n%s", "Requests/sec:", out)
	}
	r.RPS, _ = strconv.ParseFloat(m[1], 64)
	if m = wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.ParseInt(s, 10, 64)
			r.Errors += n
		}
	}
	if m = wrkStatus.FindStringSubmatch(out); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		r.Errors += n
	}
	return r, nil
}

// TfbenchArgs returns the arguments of `tfbench load` (without the program
// name) for one run against url: conns connections, a window of d (whole
// seconds), pipeline depth depth, JSON output.
func TfbenchArgs(url string, conns, depth int, d time.Duration) []string {
	return []string{"load", url, "-c", strconv.Itoa(conns), "-d", seconds(d),
		"--pipeline", strconv.Itoa(depth), "--json"}
}

// ParseTfbench reads the JSON object `tfbench load --json` prints: "rps"
// (requests/s) and "responses" are required; "errors" is either a number or
// an object of counts by error class, summed. Errors quote the output.
func ParseTfbench(out []byte) (Report, error) {
	var v struct {
		RPS       *float64        `json:"rps"`
		Responses *int64          `json:"responses"`
		Errors    json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return Report{}, fmt.Errorf("tfbench load --json: %w in %q", err, clipOut(out))
	}
	if v.RPS == nil || v.Responses == nil {
		return Report{}, fmt.Errorf("tfbench load --json: no \"rps\" or \"responses\" in %q", clipOut(out))
	}
	r := Report{RPS: *v.RPS, Responses: *v.Responses}
	if len(v.Errors) > 0 && string(v.Errors) != "null" {
		var n int64
		var byClass map[string]int64
		switch {
		case json.Unmarshal(v.Errors, &n) == nil:
			r.Errors = n
		case json.Unmarshal(v.Errors, &byClass) == nil:
			for _, c := range byClass {
				r.Errors += c
			}
		default:
			return Report{}, fmt.Errorf("tfbench load --json: \"errors\" is %s, want a number or an object of numbers", v.Errors)
		}
	}
	return r, nil
}

// clipOut shortens a program's output for an error message.
func clipOut(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}
