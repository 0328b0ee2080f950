package supervise

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
)

// TestServerEnvPATH: the runtime's bin dir is first on the server's PATH
// even when the spec's env sets PATH.
func TestServerEnvPATH(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	s := &framework.Spec{Env: map[string]string{"PATH": "/spec/bin:/usr/bin"}}
	env := serverEnv(s, framework.Variant{}, 8080, "/db", "/build", "/rt/bin")
	if got := lookupEnv(env, "PATH"); got != "/rt/bin:/spec/bin:/usr/bin" {
		t.Errorf("server PATH = %q, want /rt/bin:/spec/bin:/usr/bin", got)
	}
	env = serverEnv(s, framework.Variant{}, 8080, "/db", "/build", "")
	if got := lookupEnv(env, "PATH"); got != "/spec/bin:/usr/bin" {
		t.Errorf("server PATH without a runtime = %q, want the spec's /spec/bin:/usr/bin", got)
	}
}

// lookupEnv returns the value os/exec would give name: its last entry.
func lookupEnv(env []string, name string) string {
	val := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			val = v
		}
	}
	return val
}

// TestPinnedRuntimeRequired: Start refuses a Runtime that is not the
// variant's pinned node (the build's side is stage's test of that name).
func TestPinnedRuntimeRequired(t *testing.T) {
	s, err := framework.Load(filepath.Join(fixtureDir, "node-pinned", framework.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		variant string
		rt      runtimes.Runtime
		want    string
	}{
		{"default", runtimes.Runtime{}, "framework node-pinned variant default: runtime node@24.22.3 is not installed (given: none); call EnsureRuntime and pass its Runtime"},
		{"node22", runtimes.Runtime{Name: "node", Version: "24.22.3", BinDir: "/x"}, "framework node-pinned variant node22: runtime node@22.22.0 is not installed (given: node 24.22.3); call EnsureRuntime and pass its Runtime"},
	} {
		_, err := Start(context.Background(), s, StartOptions{Variant: tc.variant, DatabasePath: "/nonexistent.db", LogPath: filepath.Join(t.TempDir(), "log"), Runtime: tc.rt})
		if err == nil || err.Error() != tc.want {
			t.Errorf("Start %s with %v: %v, want %q", tc.variant, tc.rt, err, tc.want)
		}
	}
}
