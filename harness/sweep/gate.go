// Package sweep measures one shot and judges it: its load run and checks
// (LoadOf), the sample made of its result and the readings around it
// (Measure, FromResult), every gate reason (the success gate of
// docs/design.md, Measurement method, and the readings' own), skipped
// samples, the round order.
package sweep

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/words"
)

// HarnessFault starts the gate reason of a sample that the harness, not the
// server, invalidated: generator errors, a saturated generator CPU set or link,
// or SQLITE_BUSY from the database copy the harness gave the server.
const HarnessFault = model.HarnessFault

// NotMeasured starts the gate reason of a sample made by Skipped: one the
// harness did not measure (e.g. the server had exited).
const NotMeasured = "not measured: "

// GeneratorClass is the error class of the load generator's own failures
// (load.Class "generator": EMFILE, ENFILE, ENOBUFS, ENOMEM, EADDRNOTAVAIL),
// matched by name; it is not a socket error.
const GeneratorClass = "generator"

// socketClasses are the classes Result.SocketErrors adds up (load's
// Connect, Read, Write and Timeout), in load.Classes order.
var socketClasses = []string{string(load.Connect), string(load.Read), string(load.Write), string(load.Timeout)}

// maxExample is the most bytes of an error example a gate reason quotes;
// Sample.Examples keeps the whole message.
const maxExample = 300

// Gate applies the success gate (docs/design.md, Measurement method) to s:
// ≥ minResponses responses, no socket or check error, a 200 share ≥ share
// (0..1), renders ≥ responses (no output served without rendering), no
// probe failure and no harness fault (generator errors, saturated CPU set or
// link, SQLITE_BUSY; see HarnessFault).
func Gate(s model.Sample, share float64, minResponses int) model.GateResult {
	var why []string
	if s.Responses < int64(minResponses) {
		why = append(why, fmt.Sprintf("%d responses, fewer than the minimum %d", s.Responses, minResponses))
	}
	if s.SocketErrors > 0 {
		list := classList(s.Errors, socketClasses)
		if list == "" {
			list = strconv.FormatInt(s.SocketErrors, 10)
		}
		why = append(why, "socket errors: "+list+eg(example(s.Examples, s.Errors, socketClasses), " (e.g. ", ")"))
	}
	if n := s.Errors[string(load.Check)]; n > 0 {
		what := "responses failed their check"
		if n == 1 {
			what = "response failed its check"
		}
		why = append(why, fmt.Sprintf("%d %s under load%s", n, what, eg(s.Examples[string(load.Check)], " (e.g. ", ")")))
	}
	if s.Renders != nil && s.Cache == nil && *s.Renders < s.Responses {
		why = append(why, fmt.Sprintf("%d renders for %d responses: output served without rendering", *s.Renders, s.Responses))
	}
	if r := cacheReason(s.Cache); r != "" {
		why = append(why, r)
	}
	if s.Responses > 0 {
		got := float64(s.Success) / float64(s.Responses)
		if got < share {
			var detail []string
			if list := statusList(s.StatusCounts); list != "" {
				detail = append(detail, list)
			}
			if e := s.Examples[string(load.Status)]; e != "" {
				detail = append(detail, "e.g. "+clip(e))
			}
			r := fmt.Sprintf("success %.3f%% below the gate %.3g%%", 100*got, 100*share)
			if len(detail) > 0 {
				r += " (" + strings.Join(detail, "; ") + ")"
			}
			why = append(why, r)
		}
	}
	why = append(why, probeFailures(s)...)
	faults := harnessFaults(s)
	switch {
	case len(faults) > 0 && len(why) > 0:
		return model.GateResult{Reason: HarnessFault + strings.Join(faults, "; ") + "; the sample also failed: " + strings.Join(why, "; ")}
	case len(faults) > 0:
		return model.GateResult{Reason: HarnessFault + strings.Join(faults, "; ")}
	case len(why) > 0:
		return model.GateResult{Reason: strings.Join(why, "; ")}
	}
	return model.GateResult{Passed: true}
}

// CacheNotConfirmed starts the gate reason of a cache-hit sample whose
// hits were not all confirmed (suite `cache: hit`, docs/ssr.md).
const CacheNotConfirmed = "cache hit not confirmed: "

// cacheReason is the gate's reason for a cache-hit sample c that was not
// all hits, "" when every response was confirmed (or c is nil).
func cacheReason(c *model.CacheHits) string {
	switch {
	case c == nil:
		return ""
	case c.By == "render counts" && c.Misses > 0:
		return CacheNotConfirmed + fmt.Sprintf("%s during the window for %d responses (render counts: a hit renders nothing)", words.Plural(c.Misses, "render"), c.Checked)
	case c.By == "render counts":
		return ""
	case c.Checked == 0:
		return CacheNotConfirmed + "no response checked for " + c.By
	case c.Misses > 0:
		return CacheNotConfirmed + fmt.Sprintf("%d of %d checked responses lacked %s", c.Misses, c.Checked, c.By)
	}
	return ""
}

// probeFailures lists why s's interference probe fails the gate, each reason
// starting "probe: ": socket errors, non-200 responses, generator errors, or no
// response in a window of two intervals or more. None without a probe.
func probeFailures(s model.Sample) []string {
	p := s.Probe
	if p == nil {
		return nil
	}
	var why []string
	if list := classList(p.Errors, socketClasses); list != "" {
		why = append(why, "probe: socket errors: "+list+eg(example(p.Examples, p.Errors, socketClasses), " (e.g. ", ")"))
	}
	if n := p.Responses - p.Success; n > 0 {
		why = append(why, fmt.Sprintf("probe: %d of %d responses not status 200%s", n, p.Responses, eg(p.Examples[string(load.Status)], " (e.g. ", ")")))
	}
	if n := p.Errors[GeneratorClass]; n > 0 {
		why = append(why, fmt.Sprintf("probe: %s %d%s", GeneratorClass, n, eg(p.Examples[GeneratorClass], " (e.g. ", ")")))
	}
	if p.Responses == 0 && p.Interval > 0 && s.Window*1000 >= 2*p.Interval {
		why = append(why, "probe: no response in the window")
	}
	return why
}

// harnessFaults lists what of the harness's own invalidated s, each as a
// reason without the HarnessFault prefix: generator errors, a saturated
// generator CPU set, SQLITE_BUSY from the server's database copy.
func harnessFaults(s model.Sample) []string {
	var faults []string
	if n := s.Errors[GeneratorClass]; n > 0 {
		faults = append(faults, fmt.Sprintf("%s %d%s", GeneratorClass, n, eg(s.Examples[GeneratorClass], " (e.g. ", ")")))
	}
	if s.GeneratorSaturated {
		faults = append(faults, model.GeneratorSaturatedFault)
	}
	if s.LinkSaturated {
		faults = append(faults, "the network link was saturated (response bodies ≥ 90% of its measured capacity): it measured the link")
	}
	busy := ""
	for _, c := range classOrder(s.Examples) {
		if sqliteBusy(s.Examples[c]) {
			busy = s.Examples[c]
			break
		}
	}
	var where []string
	if busy != "" {
		where = append(where, "e.g. "+clip(busy))
	}
	if s.ServerLogFaults > 0 {
		where = append(where, "the server log has "+words.Plural(s.ServerLogFaults, "such line"))
	}
	if len(where) > 0 {
		faults = append(faults, "SQLITE_BUSY from the server's database copy ("+strings.Join(where, "; ")+")")
	}
	return faults
}

// sqliteBusy reports whether msg names SQLite's SQLITE_BUSY error: the code
// itself or its message "database is locked", in any case.
func sqliteBusy(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "sqlite_busy") || strings.Contains(m, "database is locked")
}

// classOrder returns the classes of m in report order: load.Classes first,
// then any others by name.
func classOrder[V any](m map[string]V) []string {
	var out, rest []string
	for _, c := range load.Classes {
		if _, ok := m[string(c)]; ok {
			out = append(out, string(c))
		}
	}
	for c := range m {
		if !slices.Contains(out, c) {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// classList renders the counts of the classes in only as "read 3, timeout
// 1", in report order, leaving out classes without errors.
func classList(m map[string]int64, only []string) string {
	var parts []string
	for _, c := range classOrder(m) {
		if m[c] > 0 && slices.Contains(only, c) {
			parts = append(parts, fmt.Sprintf("%s %d", c, m[c]))
		}
	}
	return strings.Join(parts, ", ")
}

// example returns the example of the first class of only, in report order,
// that has errors in counts and an example; "" when none has.
func example(examples map[string]string, counts map[string]int64, only []string) string {
	for _, c := range classOrder(examples) {
		if slices.Contains(only, c) && counts[c] > 0 && examples[c] != "" {
			return examples[c]
		}
	}
	return ""
}

// eg returns before + the clipped example + after, or "" for no example.
func eg(example, before, after string) string {
	if example == "" {
		return ""
	}
	return before + clip(example) + after
}

// clip makes an error example fit a one-line reason: line breaks escaped
// as \r and \n, cut to maxExample bytes at a rune boundary with "…" added.
func clip(s string) string {
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
	if len(s) <= maxExample {
		return s
	}
	cut := maxExample
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
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
