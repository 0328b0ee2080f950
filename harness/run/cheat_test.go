package run

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
)

// The cheat tests (docs/verification.md, Under load): servers that pass verification, then under
// load answer right only at each connection's responses 1, 101, 201, …
// (the ones a generator checking 1 in 100 looks at), or send responses
// nobody asked for (testdata/frameworks/cheat, internal/faultserver's cheat
// modes). Each runs one test on the cheat variant and on ok, the same
// server honest: the cheat's sample must fail its gate on a check of its
// path, the control's must pass.

// cheatTest is a cheat test's suite test: c=2, a 200 ms warmup (which
// spends the server's right answers left after verification) and a
// 400 ms window, 1 round.
func cheatTest(name string, typ model.TestType, path string, rows ...int) suite.Test {
	return suite.Test{Name: name, Type: typ, Path: path, Queries: rows, Settings: suite.Settings{
		Duration: 400 * time.Millisecond, Warmup: 200 * time.Millisecond, Timeout: 2 * time.Second,
		Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
}

// benchCheat runs test on the cheat adapter's variant and on ok, and
// returns their samples' gates. Both must pass verification: the cheat is
// under load only.
func benchCheat(t *testing.T, variant string, test suite.Test) (cheat, control model.GateResult) {
	t.Helper()
	spec := adapter(t, "cheat")
	var targets []Target
	for _, name := range []string{variant, "ok"} {
		for _, v := range spec.Variants {
			if v.Name == name {
				targets = append(targets, Target{Spec: spec, Variant: v})
			}
		}
	}
	if len(targets) != 2 {
		t.Fatalf("cheat adapter: no variant %s or ok", variant)
	}
	work := t.TempDir()
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{Suite: &suite.Suite{Name: "cheat", Rounds: 1, Tests: []suite.Test{test}},
		WorkDir: work, Log: &log, Seed: 1, RunID: "cheat", dateRecheck: time.Millisecond, Targets: targets})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	for _, v := range f.Verifications {
		if v.Status != model.Pass {
			t.Fatalf("%s/%s: verification %s %v; the server must cheat only under load\n%s", v.Framework, v.Variant, v.Status, v.Reasons, log.String())
		}
	}
	found := map[string]bool{}
	for _, s := range f.Samples {
		t.Logf("%s %s c=%d: %d responses, %d check errors, gate passed %t %q", s.Variant, s.Test, s.Connections, s.Responses,
			s.Errors["check"], s.Gate.Passed, s.Gate.Reason)
		switch s.Variant {
		case variant:
			cheat = s.Gate
		case "ok":
			control = s.Gate
		}
		found[s.Variant] = true
	}
	if len(f.Samples) != 2 || !found[variant] || !found["ok"] {
		t.Fatalf("%d samples, want one of %s and one of ok\n%s", len(f.Samples), variant, log.String())
	}
	noLeftovers(t, work, "cheat")
	return cheat, control
}

// harnessOnly reports whether a gate reason is a harness fault alone (a
// saturated generator CPU set: not the server's), with no "the sample also
// failed" part.
func harnessOnly(reason string) bool {
	return strings.HasPrefix(reason, sweep.HarnessFault) && !strings.Contains(reason, "the sample also failed")
}

// wantControl fails t unless the control's gate passed (or failed as a
// harness fault alone).
func wantControl(t *testing.T, g model.GateResult) {
	t.Helper()
	if !g.Passed && !harnessOnly(g.Reason) {
		t.Errorf("control (ok, honest): gate failed %q, want passed", g.Reason)
	}
}

// wantCheatCaught fails t unless the cheat's gate failed on checks of path,
// its example naming the response's position on its connection and then
// what came (got, a regular expression).
func wantCheatCaught(t *testing.T, g model.GateResult, path, got string) {
	t.Helper()
	want := regexp.MustCompile(`^\d+ responses failed their check under load \(e\.g\. check GET ` + regexp.QuoteMeta(path) +
		`: response \d+ on its connection: ` + got)
	if g.Passed || !want.MatchString(g.Reason) {
		t.Errorf("cheat: gate passed %t %q; want failed, the reason matching %s "+
			"(the server answers it wrong at every position but 1, 101, 201, … of each connection)", g.Passed, g.Reason, want)
	}
}

// cheat-json: /json answers {"message":"Hello World!!"} (27 bytes, as the
// right body) but at responses 1, 101, 201, … of each connection.
func TestBenchCheatJSON(t *testing.T) {
	cheat, control := benchCheat(t, "cheat-json", cheatTest("json", model.JSON, "/json"))
	wantCheatCaught(t, cheat, "/json", `body: want "\{\\"message\\":\\"Hello, World!\\"\}" \(27 bytes, as verified\), got "\{\\"message\\":\\"Hello World!!\\"\}"`)
	wantControl(t, control)
}

// cheat-fortunes: /fortunes lacks the fortune added at request time but
// at responses 1, 101, 201, … of each connection.
func TestBenchCheatFortunes(t *testing.T) {
	cheat, control := benchCheat(t, "cheat-fortunes", cheatTest("fortunes", model.Fortunes, "/fortunes"))
	wantCheatCaught(t, cheat, "/fortunes", `body \(\d+ bytes; \d+ as verified\): first difference at byte \d+: want …".*Additional fortune added at re`)
	wantControl(t, control)
}

// cheat-db: /db answers the row's id with a wrong randomNumber (still in
// 1..10000) but at responses 1, 101, 201, … of each connection. Only a
// check against the copy's World table can see it.
func TestBenchCheatDB(t *testing.T) {
	cheat, control := benchCheat(t, "cheat-db", cheatTest("db", model.DB, "/db"))
	wantCheatCaught(t, cheat, "/db", `id \d+ randomNumber \d+, want \d+ \(World\)\)$`)
	wantControl(t, control)
}

// cheat-page: /ssr?rows=20 answers rows 1..10 but at responses 1, 101,
// 201, … of each connection.
func TestBenchCheatPage(t *testing.T) {
	cheat, control := benchCheat(t, "cheat-page", cheatTest("page", model.Page, "/ssr?rows={n}", 20))
	wantCheatCaught(t, cheat, "/ssr?rows=20", `10 rows, want 20 \(page rules`)
	wantControl(t, control)
}

// extra-response: every answer right, but each connection's 50th, 100th,
// … request is answered twice, the second response unrequested: a
// generator counting responses counts more than it asked for. The gate
// must fail, and not as a harness fault alone.
func TestBenchCheatExtraResponse(t *testing.T) {
	cheat, control := benchCheat(t, "extra-response", cheatTest("json", model.JSON, "/json"))
	want := regexp.MustCompile(`^socket errors: read \d+ \(e\.g\. read 127\.0\.0\.1:\d+: \d+ bytes after the last requested response \(an unrequested response\): "HTTP/1\.1 200 OK`)
	if cheat.Passed || !want.MatchString(cheat.Reason) {
		t.Errorf("extra-response: gate passed %t %q; want failed, the reason matching %s (every 50th request of a connection is answered twice)", cheat.Passed, cheat.Reason, want)
	}
	wantControl(t, control)
}
