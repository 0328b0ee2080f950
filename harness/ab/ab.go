// Package ab runs an A/B comparison the way framework authors test a patch:
// two targets (two variants of one adapter, or two builds of one adapter
// from two source trees) measured in one run with interleaved rounds on the
// same machine, then compared per test by compare.Variants (Mann-Whitney U
// over the per-round RPS, Holm–Bonferroni across the tests).
package ab

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
)

// Config is one A/B run. Run holds the suite, tests, work folder, rounds,
// log and progress as for run.Bench; its Targets are set to Base and New.
// Compare's thresholds decide the verdicts (basis rps).
type Config struct {
	Run       run.Config
	Base, New run.Target
	Compare   compare.Options
	// RequireIdentical makes a test whose pages differ, or could not be
	// compared, end the run before measuring (ErrDiffers); otherwise it
	// is a warning and the run goes on.
	RequireIdentical bool
	// Out receives one line per test with its byte-equivalence verdict as
	// it is made ("equivalence json: identical (0 masks applied)"); nil
	// discards them.
	Out io.Writer
}

// Rounds is the number of rounds c measures: Run.Rounds, or the suite's
// when that is 0.
func (c Config) Rounds() int {
	if c.Run.Rounds != 0 {
		return c.Run.Rounds
	}
	if c.Run.Suite != nil {
		return c.Run.Suite.Rounds
	}
	return 0
}

// Targets resolves `tfbench ab`'s base (NAME or NAME:VARIANT) and new: a
// second variant (NAME:VARIANT or VARIANT) or, with newDir, a variant (default
// base's) of another source tree of the adapter, labelled "VARIANT@base"/"@new".
func Targets(specs []*framework.Spec, dir, base, new, newDir string) (run.Target, run.Target, error) {
	picked, err := run.Select(specs, []string{base}, dir)
	if err != nil {
		return run.Target{}, run.Target{}, err
	}
	if len(picked) != 1 {
		picked = picked[:1] // NAME alone: its default (first) variant
	}
	b := picked[0]
	if newDir != "" {
		spec, err := framework.Load(filepath.Join(newDir, framework.FileName))
		if err != nil {
			return run.Target{}, run.Target{}, err
		}
		if spec.Name != b.Spec.Name {
			return run.Target{}, run.Target{}, fmt.Errorf("--new-dir %s holds adapter %s, not %s: two builds are two source trees of one adapter", newDir, spec.Name, b.Spec.Name)
		}
		name := new
		if name == "" {
			name = b.Variant.Name
		}
		v, err := spec.Variant(name)
		if err != nil {
			return run.Target{}, run.Target{}, err
		}
		if abs(spec.Dir) == abs(b.Spec.Dir) {
			return run.Target{}, run.Target{}, fmt.Errorf("--new-dir %s is the adapter's own folder: give a copy holding the change", newDir)
		}
		b.Label = b.Variant.Name + "@base"
		return b, run.Target{Spec: spec, Variant: v, Label: v.Name + "@new"}, nil
	}
	if new == "" {
		return run.Target{}, run.Target{}, fmt.Errorf("ab needs a second target: NAME:VARIANT, or --new-dir with another source tree of %s", b.Spec.Name)
	}
	if !strings.Contains(new, ":") {
		new = b.Spec.Name + ":" + new
	}
	picked, err = run.Select(specs, []string{new}, dir)
	if err != nil {
		return run.Target{}, run.Target{}, err
	}
	n := picked[0]
	if n.ID() == b.ID() {
		return run.Target{}, run.Target{}, fmt.Errorf("%s compared with itself: name two different variants, or give --new-dir", b.ID())
	}
	return b, n, nil
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// Run compares c.Base's and c.New's pages (check, Equivalence), then measures
// both in interleaved rounds (run.Bench) and compares them per test. It returns
// the results, their path (written as measured) and the table, nil on failure.
func Run(ctx context.Context, c Config) (*results.File, string, *compare.Table, error) {
	if n := c.Rounds(); n < compare.MinRounds {
		return nil, "", nil, fmt.Errorf("ab needs at least %d interleaved rounds, got %d (set --rounds)", compare.MinRounds, n)
	}
	c.Run.Targets = []run.Target{c.Base, c.New}
	c.Run.BeforeMeasure = c.check
	f, path, err := run.Bench(ctx, c.Run)
	if err != nil {
		return f, path, nil, err
	}
	base := model.ID{Framework: c.Base.Spec.Name, Variant: c.Base.VariantName()}
	nw := model.ID{Framework: c.New.Spec.Name, Variant: c.New.VariantName()}
	t, err := compare.Variants(f, base, nw, c.Compare)
	return f, path, t, err
}
