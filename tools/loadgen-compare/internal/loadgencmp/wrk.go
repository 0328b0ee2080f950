package loadgencmp

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// WrkScript is the Lua script wrk pipelines with, as TFB's pipeline.lua:
// one batch of depth (args[1]) wrk.format requests, -H headers included,
// written at once, each response counted as a request.
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

// Shot is one generator run: its URL, load shape, test type and window.
type Shot struct {
	URL     string
	Setting Setting
	// Type is the test type whose Accept header is sent (model.TestType.Accept)
	// and, by tfbench, checked under load; "" sends no Accept header.
	Type model.TestType
	// Duration is the window, whole seconds.
	Duration time.Duration
	// World is the dataset file (SQLite) the adapter serves, whose World
	// table tfbench compares db, queries and page responses with (--world;
	// WorldTypes); "" for a fixed-response server.
	World string
}

// WorldTypes are the test types whose responses tfbench load checks
// against the dataset's World table, given with --world.
var WorldTypes = []model.TestType{model.DB, model.Queries, model.Page}

// WrkArgs returns wrk's arguments for shot: threads threads, tfbench's
// request headers, and for depth > 1 the pipelining script at script (depth
// 1 runs without one, wrk's cheapest path).
func WrkArgs(shot Shot, threads int, script string) []string {
	args := []string{
		"-t", strconv.Itoa(threads),
		"-c", strconv.Itoa(shot.Setting.Connections),
		"-d", seconds(shot.Duration),
		"--timeout", seconds(Timeout),
	}
	if shot.Type != "" {
		args = append(args, "-H", "Accept: "+shot.Type.Accept())
	}
	args = append(args, "-H", "Connection: keep-alive", "-H", "User-Agent: "+suite.UserAgent)
	if depth := shot.Setting.Pipeline; depth > 1 {
		return append(args, "-s", script, shot.URL, "--", strconv.Itoa(depth))
	}
	return append(args, shot.URL)
}

// Timeout is both generators' request timeout (tfbench --timeout, wrk
// --timeout): TFB's 8 s, tfbench's default. wrk's own default is 2 s, so a
// server whose slowest pipelined batches take 2–8 s failed wrk's runs only.
const Timeout = 8 * time.Second

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
	// ErrorDetail breaks Errors down, e.g. "read 3, non-2xx/3xx 5" (wrk),
	// `status 2 (first: "status 500")` (tfbench: classes and examples).
	ErrorDetail string
}

var (
	wrkRequests = regexp.MustCompile(`(?m)^\s*(\d+) requests in `)
	wrkRPS      = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)\s*$`)
	wrkSocket   = regexp.MustCompile(`(?m)^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)\s*$`)
	wrkStatus   = regexp.MustCompile(`(?m)^\s*Non-2xx or 3xx responses: (\d+)\s*$`)
)

// ParseWrk reads wrk 4's summary: Responses, RPS, and as Errors the sum of
// its socket errors and non-2xx/3xx responses. A missing requests or
// Requests/sec line is an error quoting the output.
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
	var detail []string
	add := func(name, count string) {
		n, _ := strconv.ParseInt(count, 10, 64)
		if n > 0 {
			r.Errors += n
			detail = append(detail, name+" "+count)
		}
	}
	if m = wrkSocket.FindStringSubmatch(out); m != nil {
		for i, name := range []string{"connect", "read", "write", "timeout"} {
			add(name, m[i+1])
		}
	}
	if m = wrkStatus.FindStringSubmatch(out); m != nil {
		add("non-2xx/3xx", m[1])
	}
	r.ErrorDetail = strings.Join(detail, ", ")
	return r, nil
}

// TfbenchArgs returns the arguments of `tfbench load` (without the program
// name) for shot: `load URL -c N -d D --pipeline P [--type TYPE [--world
// PATH]] --json`; --type makes it send TYPE's Accept header and check its
// responses, --world (WorldTypes, when shot.World is set) names the
// dataset whose World table db, queries and page responses are compared
// with.
func TfbenchArgs(shot Shot) []string {
	args := []string{"load", shot.URL, "-c", strconv.Itoa(shot.Setting.Connections), "-d", seconds(shot.Duration),
		"--timeout", seconds(Timeout), "--pipeline", strconv.Itoa(shot.Setting.Pipeline)}
	if shot.Type != "" {
		args = append(args, "--type", string(shot.Type))
		if shot.World != "" && slices.Contains(WorldTypes, shot.Type) {
			args = append(args, "--world", shot.World)
		}
	}
	return append(args, "--json")
}

// ParseTfbench reads tfbench load --json's object: "rps" (requests/s) and
// "responses" required, "errors" a number or counts by class (summed, with
// "error_examples"). Errors quote the output.
func ParseTfbench(out []byte) (Report, error) {
	var v struct {
		RPS       *float64          `json:"rps"`
		Responses *int64            `json:"responses"`
		Errors    json.RawMessage   `json:"errors"`
		Examples  map[string]string `json:"error_examples"`
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
			var detail []string
			for _, class := range slices.Sorted(maps.Keys(byClass)) {
				if c := byClass[class]; c > 0 {
					r.Errors += c
					d := class + " " + strconv.FormatInt(c, 10)
					if ex := v.Examples[class]; ex != "" {
						d += fmt.Sprintf(" (first: %q)", clip(ex, 120))
					}
					detail = append(detail, d)
				}
			}
			r.ErrorDetail = strings.Join(detail, ", ")
		default:
			return Report{}, fmt.Errorf("tfbench load --json: \"errors\" is %s, want a number or an object of numbers", v.Errors)
		}
	}
	return r, nil
}

// clipOut shortens a program's output for an error message.
func clipOut(b []byte) string { return clip(strings.TrimSpace(string(b)), 400) }

// clip cuts s to at most its first n bytes (whole UTF-8 characters) and
// "…" when longer.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
