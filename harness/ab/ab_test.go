package ab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

func specs(t *testing.T) []*framework.Spec {
	t.Helper()
	s, err := framework.Discover("../../frameworks")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// copyAdapter copies frameworks/go-stdlib's framework.yaml and go.mod into
// dir/go-stdlib (what Load reads) and returns that folder.
func copyAdapter(t *testing.T, dir string) string {
	t.Helper()
	to := filepath.Join(dir, "go-stdlib")
	os.MkdirAll(to, 0o755)
	for _, f := range []string{"framework.yaml", "go.mod"} {
		data, err := os.ReadFile(filepath.Join("../../frameworks/go-stdlib", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, f), data, 0o644)
	}
	return to
}

func TestTargets(t *testing.T) {
	all := specs(t)
	b, n, err := Targets(all, "frameworks", "engine:pool", "serialized", "")
	if err != nil || b.ID().String() != "engine/pool" || n.ID().String() != "engine/serialized" || b.Label != "" || n.Label != "" {
		t.Errorf("two variants: %s %s %v", b.ID().String(), n.ID().String(), err)
	}
	b, n, err = Targets(all, "frameworks", "engine", "engine:serialized", "")
	if err != nil || b.ID().String() != "engine/pool" || n.ID().String() != "engine/serialized" {
		t.Errorf("NAME alone is its first variant: %s %s %v", b.ID().String(), n.ID().String(), err)
	}

	dir := copyAdapter(t, t.TempDir())
	b, n, err = Targets(all, "frameworks", "go-stdlib", "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if b.ID().String() != "go-stdlib/default@base" || n.ID().String() != "go-stdlib/default@new" || n.Spec.Dir != dir || b.Spec.Dir == dir {
		t.Errorf("two builds: %s (%s), %s (%s)", b.ID().String(), b.Spec.Dir, n.ID().String(), n.Spec.Dir)
	}

	for _, tc := range []struct{ base, new, dir, want string }{
		{"go-stdlib", "default", "", "go-stdlib/default compared with itself"},
		{"go-stdlib", "", "", "ab needs a second target: NAME:VARIANT, or --new-dir with another source tree of go-stdlib"},
		{"nope", "x", "", `no framework "nope" in frameworks`},
		{"engine:pool", "fast", "", `"fast"`},
		{"node-http", "", dir, "holds adapter go-stdlib, not node-http"},
		{"go-stdlib", "", "../../frameworks/go-stdlib", "is the adapter's own folder"},
		{"go-stdlib", "", t.TempDir(), "framework.yaml"},
	} {
		if _, _, err := Targets(all, "frameworks", tc.base, tc.new, tc.dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Targets(%q, %q, %q): %v, want %q", tc.base, tc.new, tc.dir, err, tc.want)
		}
	}
}

func TestRunNeedsFiveRounds(t *testing.T) {
	s, err := suite.Load("../../suites/tfb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, n, err := Targets(specs(t), "frameworks", "engine:pool", "serialized", "")
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Run: run.Config{Suite: s}, Base: b, New: n}
	if _, _, _, err := Run(context.Background(), c); err == nil || err.Error() != "ab needs at least 5 interleaved rounds, got 3 (set --rounds)" {
		t.Errorf("suite's 3 rounds: %v", err)
	}
	c.Run.Rounds = 4
	if _, _, _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "got 4") {
		t.Errorf("--rounds 4: %v", err)
	}
}
