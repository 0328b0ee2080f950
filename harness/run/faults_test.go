package run

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/supervise"
)

// faultJSON is the json test of the fault tests: levels 2 and 4, 300 ms
// windows, no warmup, and a 200 ms response timeout, below the window so
// that a request that hangs times out inside it (in-flight requests at the
// window's end are dropped, never counted as timeouts). 50 responses
// needed: the 27 answered before crash and hang start are too few.
var faultJSON = suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
	Duration: 300 * time.Millisecond, Timeout: 200 * time.Millisecond,
	Concurrency: []int{2, 4}, Pipeline: 1, Gate: 1, MinResponses: 50, Engine: "raw"}}

// sourceBytes creates the dataset in work the way Bench would and returns
// its bytes.
func sourceBytes(t *testing.T, work string) []byte {
	t.Helper()
	if _, err := dataset.Ensure(DatasetPath(work)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(DatasetPath(work))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// noLeftovers fails t when a server process of this test binary is still
// alive (supervise.OwnedBy: TFBENCH_OWNER tags) or a database copy is left
// in the run's db folder.
func noLeftovers(t *testing.T, work, runID string) {
	t.Helper()
	if left, err := supervise.OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		t.Errorf("processes left running: %v (%v)", left, err)
	}
	if dbs, _ := filepath.Glob(filepath.Join(work, "runs", runID, "db", "*")); len(dbs) > 0 {
		t.Errorf("database copies left without Keep: %v", dbs)
	}
}

// TestBenchFaults runs one Bench over the fault adapter's variants and a
// broken build. The run completes; every fault ends up as its own reason:
// ok passes both levels; crash (exit 2 at request 31) fails c=2 with the
// exit and records c=4 as not measured; hang (from request 31) fails on
// too few responses and timeouts; huge (1 MiB + 1 byte bodies) fails its
// checks under load; busy (every 10th answer 500 SQLITE_BUSY, logged)
// fails as a harness fault with the log's count; never-ready and the
// broken build are not measured. The report shows a number only in the ok
// row; no server process, no database copy is left; the source dataset's
// bytes are unchanged.
func TestBenchFaults(t *testing.T) {
	spec := adapter(t, "fault")
	broken := adapter(t, "broken")
	s := &suite.Suite{Name: "faults", Rounds: 1, Tests: []suite.Test{faultJSON}}
	var targets []Target
	for _, v := range spec.Variants {
		targets = append(targets, Target{Spec: spec, Variant: v})
	}
	targets = append(targets, Target{Spec: broken, Variant: broken.Variants[0]})
	work := t.TempDir()
	source := sourceBytes(t, work)
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "faults",
		Targets: targets, dateRecheck: time.Millisecond})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if f.Status != results.Complete {
		t.Errorf("status %q, want complete", f.Status)
	}

	errs := map[string]string{}
	for _, fw := range f.Frameworks {
		errs[fw.Name+"/"+fw.Variant] = fw.Error
	}
	for name, want := range map[string]*regexp.Regexp{
		"fault/ok": regexp.MustCompile(`^$`), "fault/crash": regexp.MustCompile(`^$`), "fault/hang": regexp.MustCompile(`^$`),
		"fault/huge": regexp.MustCompile(`^$`), "fault/busy": regexp.MustCompile(`^$`),
		"fault/never-ready": regexp.MustCompile(`^start failed: framework fault variant never-ready: not ready after 1s: GET http://127\.0\.0\.1:\d+/json: last: status 503 Service Unavailable\nlast lines of .*/fault-never-ready-r1\.log:\n(?s:.*)faultserver: mode never-ready, after 0: listening on 127\.0\.0\.1:\d+$`),
		"broken/default":    regexp.MustCompile("^build failed: framework broken: build `.*` failed: exit status 3\n"),
	} {
		if got, ok := errs[name]; !ok || !want.MatchString(got) {
			t.Errorf("%s: framework error %q, want to match %s", name, got, want)
		}
	}
	var verified []string
	for _, v := range f.Verifications {
		if v.Status != "pass" {
			t.Errorf("%s/%s verification %s %v", v.Framework, v.Variant, v.Status, v.Reasons)
		}
		verified = append(verified, v.Variant)
	}
	slices.Sort(verified)
	if want := []string{"busy", "crash", "hang", "huge", "ok"}; !slices.Equal(verified, want) {
		t.Errorf("verified %v, want %v", verified, want)
	}

	// The reasons, per variant and level.
	checkFailed := `\d+ responses failed their check under load \(e\.g\. check GET /json: response 1 on its connection: body 1048577 bytes, over the 1 MiB kept for a check\)`
	hugeFailed := `^(harness fault, not the server's: the load generator's CPU set was saturated \(≥ 90% busy\): it measured the generator; the sample also failed: )?(\d+ responses, fewer than the minimum 50; )?` + checkFailed + `$`
	hangFailed := func(responses int) string {
		return fmt.Sprintf(`^%d responses, fewer than the minimum 50; socket errors: timeout \d+ \(e\.g\. read 127\.0\.0\.1:\d+: no complete response within 200ms\)$`, responses)
	}
	want := map[string]string{
		"ok 2": `^$`, "ok 4": `^$`,
		// Requests 5 to 30 answered (1 to 3 are the ready poll and
		// verification, 4 the check's reference body), then exit status 2: the
		// reconnects are refused (or reset, when the exit caught them in the
		// accept queue).
		"crash 2": `^26 responses, fewer than the minimum 50; socket errors: connect \d+(, read \d+)?(, write \d+)? \(e\.g\. connect 127\.0\.0\.1:\d+: connection (refused|reset by peer)\); server exited during the sample \(exit status 2\)$`,
		"crash 4": `^not measured: the server exited during json c=2 in round 1 \(exit status 2\)$`,
		"hang 2":  hangFailed(26),
		"hang 4":  hangFailed(0),
		// Reading 1 MiB bodies may saturate the generator's CPU set, and on a
		// busy machine the window may hold fewer than 50 of them.
		"huge 2": hugeFailed,
		"huge 4": hugeFailed,
		"busy 2": `^harness fault, not the server's: SQLITE_BUSY from the server's database copy \(.*the server log has \d+ such lines\); the sample also failed: .*success \d+\.\d+% below the gate 100% \(200: \d+, 500: \d+`,
		"busy 4": `^harness fault, not the server's: SQLITE_BUSY from the server's database copy \(.*the server log has \d+ such lines\); the sample also failed: .*success \d+\.\d+% below the gate 100% \(200: \d+, 500: \d+`,
	}
	var got []string
	for _, smp := range f.Samples {
		k := fmt.Sprintf("%s %d", smp.Variant, smp.Connections)
		got = append(got, k)
		if smp.Framework != "fault" || smp.Round != 1 || smp.Engine != "raw" || smp.Test != "json" {
			t.Errorf("%s: key %+v", k, smp.Key)
		}
		re, ok := want[k]
		if !ok || (raceEnabled && smp.Variant == "hang") {
			// Under the race detector the window may end before a hung
			// request's 200 ms timeout.
			continue
		}
		if !regexp.MustCompile(re).MatchString(smp.Gate.Reason) || smp.Gate.Passed != (smp.Variant == "ok") {
			t.Errorf("%s: gate %v %q, want to match %s", k, smp.Gate.Passed, smp.Gate.Reason, re)
		}
		// The server log's SQLITE_BUSY lines: one per 500 answered in the
		// window, and at most one per connection more (a request in flight
		// when the window ended), give or take a line late from the level
		// before.
		busy := smp.StatusCounts["500"]
		if smp.Variant == "busy" && (busy == 0 || smp.ServerLogFaults < busy || smp.ServerLogFaults > busy+int64(smp.Connections)+2) {
			t.Errorf("%s: %d SQLITE_BUSY lines in the server log for %d answers 500", k, smp.ServerLogFaults, busy)
		}
		if smp.Variant != "busy" && smp.ServerLogFaults != 0 {
			t.Errorf("%s: %d SQLITE_BUSY lines in the server log, want 0", k, smp.ServerLogFaults)
		}
		if k == "busy 2" && !strings.Contains(smp.Gate.Reason, fmt.Sprintf("the server log has %d such lines", smp.ServerLogFaults)) {
			t.Errorf("%s: reason %q does not quote the %d log lines", k, smp.Gate.Reason, smp.ServerLogFaults)
		}
		if k == "crash 4" && (smp.Window != 0 || smp.Responses != 0 || smp.Histogram != nil) {
			t.Errorf("%s: not measured, yet window %v, %d responses", k, smp.Window, smp.Responses)
		}
	}
	slices.Sort(got)
	if exp := []string{"busy 2", "busy 4", "crash 2", "crash 4", "hang 2", "hang 4", "huge 2", "huge 4", "ok 2", "ok 4"}; !slices.Equal(got, exp) {
		t.Errorf("samples %v, want %v", got, exp)
	}
	crashLog := filepath.Join(work, "runs", "faults", "logs", "fault-crash-r1.log")
	for _, line := range []string{
		"round 1/1: fault/crash: the server exited during json c=2 in round 1 (exit status 2); the rest of its round is not measured; last lines of " + crashLog + ":\n",
		"\n    faultserver: crash mode: exiting with status 2 after 30 requests\n",
		"round 1/1: fault/crash json c=4: not measured: the server exited during json c=2 in round 1 (exit status 2)\n",
	} {
		if !strings.Contains(log.String(), line) {
			t.Errorf("log lacks %q:\n%s", line, log.String())
		}
	}

	// The report: a number in the ok row only; every other row's reason
	// in the notes.
	var md strings.Builder
	if err := report.Markdown(&md, f); err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(md.String(), "\n## json\n")
	table, notes, _ := strings.Cut(section, "\nNotes:\n")
	number := regexp.MustCompile(`^[0-9][0-9,.]*(%|–[0-9][0-9,]*)?$`) // 40,460; 100.0%; 40,460–40,460; 0.07
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 12 || !slices.Contains([]string{"fault", "broken"}, strings.TrimSpace(cells[1])) {
			continue
		}
		rows++
		variant := strings.TrimSpace(cells[2])
		for _, c := range cells[3:11] { // Peak RPS … RSS MB
			c = strings.TrimSpace(c)
			if variant == "ok" && !number.MatchString(c) || variant != "ok" && c != "—" {
				t.Errorf("report row %s: cell %q\n%s", variant, c, line)
			}
		}
	}
	if rows != 7 {
		t.Errorf("%d report rows, want 7:\n%s", rows, table)
	}
	for _, note := range []string{
		"- fault (crash): no peak: no level passed the gate in every round (2 connections, round 1: 26 responses, fewer than the minimum 50; socket errors: connect ",
		"- fault (hang): no peak: no level passed the gate in every round (2 connections, round 1: 26 responses",
		"- fault (huge): no peak: no level passed the gate in every round (2 connections, round 1: ",
		"- fault (busy): no peak: no level passed the gate in every round (2 connections, round 1: harness fault, not the server's: SQLITE_BUSY",
		"- fault (never-ready): not measured: start failed: framework fault variant never-ready: not ready after 1s",
		"- broken (default): not measured: build failed: framework broken: build",
	} {
		if !strings.Contains(notes, note) {
			t.Errorf("report notes lack %q:\n%s", note, notes)
		}
	}
	if strings.Contains(notes, "fault (ok)") {
		t.Errorf("report notes on ok:\n%s", notes)
	}

	noLeftovers(t, work, "faults")
	if after, err := os.ReadFile(DatasetPath(work)); err != nil || !bytes.Equal(after, source) {
		t.Errorf("the source dataset's bytes changed (%v)", err)
	}
}

// TestBenchKeep: with Keep the round's database copy stays, byte for byte
// the source (the fake server does not write); without it no copy is left
// (TestBenchFaults, TestBenchRoundsAndLabel).
func TestBenchKeep(t *testing.T) {
	spec := fakeTarget(t)
	test := faultJSON
	test.Concurrency = []int{2}
	work := t.TempDir()
	source := sourceBytes(t, work)
	var log strings.Builder
	_, _, err := Bench(context.Background(), Config{Suite: &suite.Suite{Name: "keep", Rounds: 1, Tests: []suite.Test{test}},
		WorkDir: work, Log: &log, Seed: 1, RunID: "keep", Keep: true, dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: spec, Variant: spec.Variants[0]}}})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	dbs, _ := filepath.Glob(filepath.Join(work, "runs", "keep", "db", "*"))
	want := filepath.Join(work, "runs", "keep", "db", "fake-default-r1.db")
	if len(dbs) != 1 || dbs[0] != want {
		t.Fatalf("database copies %v, want %s only", dbs, want)
	}
	if b, err := os.ReadFile(want); err != nil || !bytes.Equal(b, source) {
		t.Errorf("the kept copy differs from the source (%d bytes, %v; source %d bytes)", len(b), err, len(source))
	}
	if left, err := supervise.OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		t.Errorf("processes left running: %v (%v)", left, err)
	}
}

// TestSourceGuard: a byte appended to the source dataset during a run (in
// the Progress callback, before the shot) makes Bench return an error with
// both hashes; the run itself is recorded as complete, with its sample. A
// SQLite side file appearing beside the source, or the source vanishing,
// is caught too.
func TestSourceGuard(t *testing.T) {
	spec := fakeTarget(t)
	test := faultJSON
	test.Concurrency = []int{2}
	work := t.TempDir()
	source := sourceBytes(t, work)
	path := DatasetPath(work)
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{Suite: &suite.Suite{Name: "guard", Rounds: 1, Tests: []suite.Test{test}},
		WorkDir: work, Log: &log, Seed: 1, RunID: "guard", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: spec, Variant: spec.Variants[0]}},
		Progress: func(s progress.Step) {
			if s.Build != "" {
				return
			}
			fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			fh.Write([]byte{0})
			fh.Close()
		}})
	sum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:6]) }
	want := fmt.Sprintf("dataset source %s changed during the run (sha256 %s… → %s…)", path, sum(source), sum(append(source, 0)))
	if err == nil || err.Error() != want {
		t.Fatalf("err %v, want %q\n%s", err, want, log.String())
	}
	if f == nil || f.Status != results.Complete || len(f.Samples) != 1 || !f.Samples[0].Gate.Passed {
		t.Errorf("results %+v; want complete with its one passed sample", f)
	}
	noLeftovers(t, work, "guard")
}

// TestRenderCountsDown: render counts that answer verification but 503
// while the run measures fail each sample with the fetch's error; the run
// goes on to the next level and completes.
func TestRenderCountsDown(t *testing.T) {
	spec := adapter(t, "counts")
	work := t.TempDir()
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{Suite: &suite.Suite{Name: "counts", Rounds: 1, Tests: []suite.Test{faultJSON}},
		WorkDir: work, Log: &log, Seed: 1, RunID: "counts", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: spec, Variant: spec.Variants[0]}}})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if f.Status != results.Complete || len(f.Verifications) != 1 || f.Verifications[0].Status != "pass" {
		t.Fatalf("status %s, verifications %+v", f.Status, f.Verifications)
	}
	// Against this fast local server the generator may be the bottleneck.
	re := regexp.MustCompile(`^(harness fault, not the server's: the load generator's CPU set was saturated \(≥ 90% busy\): it measured the generator; )?render counts: GET http://127\.0\.0\.1:\d+/renders: status 503, want 200 with the render counts$`)
	var levels []int
	for _, smp := range f.Samples {
		levels = append(levels, smp.Connections)
		if smp.Gate.Passed || !re.MatchString(smp.Gate.Reason) || smp.Renders != nil || smp.Responses < 50 {
			t.Errorf("c=%d: gate %v %q, renders %v, %d responses; want failed on the render counts only", smp.Connections, smp.Gate.Passed, smp.Gate.Reason, smp.Renders, smp.Responses)
		}
	}
	if !slices.Equal(levels, []int{2, 4}) {
		t.Errorf("levels %v, want [2 4]", levels)
	}
	if !strings.Contains(log.String(), "round 1/1: counts/default json c=4: ") {
		t.Errorf("log lacks the c=4 sample:\n%s", log.String())
	}
	noLeftovers(t, work, "counts")
}

// TestFDPreflight: the warning names the test and level with the most
// connections when the open-file limit is below them plus 64.
func TestFDPreflight(t *testing.T) {
	json := suite.Test{Name: "json", Settings: suite.Settings{Concurrency: []int{16, 200}}}
	rate := suite.Test{Name: "db", Settings: suite.Settings{Concurrency: []int{8}, Rate: 1000, RateConnections: 300}}
	for _, c := range []struct {
		limit uint64
		tests []suite.Test
		want  string
	}{
		{64, []suite.Test{json}, "harness: open-file limit 64 is below json c=200 + 64 spare; those samples may fail as harness faults (ulimit -n)"},
		{263, []suite.Test{json}, "harness: open-file limit 263 is below json c=200 + 64 spare; those samples may fail as harness faults (ulimit -n)"},
		{264, []suite.Test{json}, ""},
		{300, []suite.Test{json, rate}, "harness: open-file limit 300 is below db 1000 requests/s over 300 connections + 64 spare; those samples may fail as harness faults (ulimit -n)"},
		{0, []suite.Test{json}, ""},
	} {
		if got := fdPreflight(c.limit, c.tests); got != c.want {
			t.Errorf("limit %d: %q, want %q", c.limit, got, c.want)
		}
	}
	if openFileLimit() == 0 {
		t.Error("RLIMIT_NOFILE unreadable")
	}
}
