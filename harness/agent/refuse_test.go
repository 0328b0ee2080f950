package agent

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/stage"
)

// testAgent is an agent past hello and begin's host, with its work folder
// at work, answering handle in this process.
func testAgent(work string) *agent {
	return &agent{cfg: Config{WorkDir: work, Protocol: Protocol}, work: work, out: json.NewEncoder(io.Discard),
		specs: map[string]*framework.Spec{}, servers: map[string]serverhost.Server{}, inflight: map[uint64]context.CancelFunc{},
		helloed: true, host: serverhost.NewLocal(serverhost.LocalConfig{WorkDir: work})}
}

// ask has a answer op with args and returns its error ("" for none).
func ask(t *testing.T, a *agent, op string, args any) string {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.handle(context.Background(), request{ID: 1, Op: op, Args: raw}); err != nil {
		return err.Error()
	}
	return ""
}

// TestSourcesRefusesHash: a sources hash other than 64 lowercase hex digits
// is refused before any path is made of it; "../../victim…" once made the
// agent empty a folder beside its work folder (RemoveAll of src/HASH[:12]/NAME).
func TestSourcesRefusesHash(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "w")
	victim := filepath.Join(dir, "victim", "x", "keep")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	a := testAgent(work)
	zeros := strings.Repeat("0", 64)
	for _, hash := range []string{
		"../../victim" + zeros[12:],
		zeros[:12],
		zeros + "0",
		strings.ToUpper("abcdef") + zeros[6:],
		"g" + zeros[1:],
		"",
	} {
		got := ask(t, a, "sources", sourcesArgs{Name: "x", Hash: hash})
		want := "agent: sources of x: hash " + strconv.Quote(hash) + " is not a SHA-256 in 64 lowercase hex digits"
		if got != want {
			t.Errorf("hash %q: %q\nwant %q", hash, got, want)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("the folder beside the work folder: %v", err)
	}
	if got, want := ask(t, a, "sources", sourcesArgs{Name: "../x", Hash: zeros}), `agent: sources name: "../x" is not a plain name`; got != want {
		t.Errorf("name ../x: %q, want %q", got, want)
	}
	// stage.TreeHash's own form passes.
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "f"), []byte("x"), 0o644)
	h, err := stage.TreeHash(src)
	if err != nil || checkHash(h) != nil {
		t.Errorf("TreeHash %q (%v): %v", h, err, checkHash(h))
	}
}

// TestBuildRefusesPaths: build's stage must be build/NAME/SLUG (Stage
// empties it) and its log a plain name; both are checked before anything
// else, and the controller's own form passes on to the next check.
func TestBuildRefusesPaths(t *testing.T) {
	a := testAgent(t.TempDir())
	hash := strings.Repeat("0", 64)
	for _, st := range []string{"", ".", "src", "runs", "build", "build/x", "build/x/..", "build/../src/x", "/build/x/go", "build/x/go/src", `build/x/go\..\..`, "build//go"} {
		got := ask(t, a, "build", buildArgs{Name: "x", Hash: hash, Stage: st, LogName: "x.log"})
		if want := "agent: stage " + strconv.Quote(st) + " is not a folder build/NAME/SLUG"; got != want {
			t.Errorf("stage %q: %q\nwant %q", st, got, want)
		}
	}
	for _, log := range []string{"", "..", "../x.log", "logs/x.log"} {
		got := ask(t, a, "build", buildArgs{Name: "x", Hash: hash, Stage: "build/x/node-24.22.3", LogName: log})
		if want := "agent: log name: " + strconv.Quote(log) + " is not a plain name"; got != want {
			t.Errorf("log %q: %q\nwant %q", log, got, want)
		}
	}
	got := ask(t, a, "build", buildArgs{Name: "x", Hash: hash, Stage: "build/x/node-24.22.3+v@0a1b2c3d", LogName: "x-node-24.22.3+v@0a1b2c3d-build.log"})
	if want := "agent: no sources of x (sha256 000000000000) received"; got != want {
		t.Errorf("the controller's form: %q, want %q", got, want)
	}
}

// TestNamesRefused: run ids, tags and a profile's test name become file
// names on the agent; one holding a slash or being . or .. is refused.
func TestNamesRefused(t *testing.T) {
	a := testAgent(t.TempDir())
	for _, c := range []struct {
		op   string
		args any
		want string
	}{
		{"begin", beginArgs{RunID: "../r"}, `run id: "../r" is not a plain name`},
		{"begin", beginArgs{RunID: ".."}, `run id: ".." is not a plain name`},
		{"start", startArgs{Build: "build/x/go", Tag: "../t"}, `tag: "../t" is not a plain name`},
		{"start", startArgs{Build: "build/x/go", Tag: ""}, `tag: "" is not a plain name`},
		{"profiles", serverArgs{Server: "s1", Test: "../../x"}, `agent: profiles of test: "../../x" is not a plain name`},
		{"profiles", serverArgs{Server: "s1", Test: `..\x`}, `agent: profiles of test: "..\\x" is not a plain name`},
		{"profiles", serverArgs{Server: "s1", Test: "plaintext"}, `no server "s1" on this agent`},
	} {
		if got := ask(t, a, c.op, c.args); got != c.want {
			t.Errorf("%s %+v: %q\nwant %q", c.op, c.args, got, c.want)
		}
	}
}
