package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/results"
)

func compareCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", "compare [--basis rps|ratio] [--alpha 0.05] [--min-change 5%] [--json FILE] [--out FILE.md] BASE NEW", stderr)
	cf := compareFlags(fs, true)
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	o, err := cf.options()
	if err == nil && len(files) != 2 {
		err = fmt.Errorf("compare needs two results files, BASE and NEW; got %d", len(files))
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		fs.Usage()
		return errUsage
	}
	o.BaseName, o.NewName = files[0], files[1]
	base, err := results.ReadSet(files[0])
	if err != nil {
		return err
	}
	next, err := results.ReadSet(files[1])
	if err != nil {
		return err
	}
	t, err := compare.Sets(base, next, o)
	if err != nil {
		return err
	}
	if err := writeCompare(t, *cf.out, *cf.json, stdout); err != nil {
		return err
	}
	return t.Regression()
}

// writeCompare writes t's markdown to path (atomically) or, when path is
// empty, to stdout, and its JSON to jsonPath when set.
func writeCompare(t *compare.Table, path, jsonPath string, stdout io.Writer) error {
	if path == "" {
		if err := compare.Markdown(stdout, t); err != nil {
			return err
		}
	} else {
		var md bytes.Buffer
		if err := compare.Markdown(&md, t); err != nil {
			return err
		}
		if err := results.WriteFileAtomic(path, md.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	if jsonPath != "" {
		var js bytes.Buffer
		if err := compare.JSON(&js, t); err != nil {
			return err
		}
		if err := results.WriteFileAtomic(jsonPath, js.Bytes()); err != nil {
			return err
		}
		if path != "" {
			fmt.Fprintf(stdout, "wrote %s\n", jsonPath)
		}
	}
	return nil
}

// parseInterleaved parses fs's flags anywhere among the positional
// arguments ("BASE NEW --out x" too) and returns the positional ones;
// errors are flag.ErrHelp or errUsage (already printed).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// share is a flag value in [0, 1) given as a percentage ("5%") or a share
// ("0.05").
type share float64

func (s *share) String() string { return strconv.FormatFloat(float64(*s)*100, 'g', 4, 64) + "%" }

func (s *share) Set(v string) error {
	text, pct := strings.CutSuffix(strings.TrimSpace(v), "%")
	x, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return fmt.Errorf("%q: want a percentage like 5%% or a share like 0.05", v)
	}
	if pct {
		x /= 100
	}
	if !(x >= 0 && x < 1) {
		return fmt.Errorf("%q: want 0%% ≤ change < 100%%", v)
	}
	*s = share(x)
	return nil
}

// compareFlagSet holds the verdict-rule and output flags compare and ab
// share.
type compareFlagSet struct {
	basis     *string // nil for ab: two variants of one run compare by rps
	alpha     *float64
	minChange share
	json, out *string
}

// compareFlags registers the verdict-rule flags (--basis only when
// withBasis), --json and --out on fs.
func compareFlags(fs *flag.FlagSet, withBasis bool) *compareFlagSet {
	def := compare.DefaultOptions()
	c := &compareFlagSet{minChange: share(def.MinChange)}
	if withBasis {
		c.basis = fs.String("basis", string(def.Basis), "what each round contributes: rps (requests/s at each side's peak level) or ratio (RPS ÷ "+def.Reference+" RPS of the same run and round; use it across hosts)")
	}
	c.alpha = fs.Float64("alpha", def.Alpha, "significance level for the Holm-adjusted p of each row")
	fs.Var(&c.minChange, "min-change", "smallest change of the median that is faster or slower, a percentage (5%) or a share (0.05)")
	c.json = fs.String("json", "", "also write the comparison as JSON to this file")
	c.out = fs.String("out", "", "markdown file to write (default: standard output)")
	return c
}

// options returns the flags as compare.Options; errors name the bad flag.
func (c *compareFlagSet) options() (compare.Options, error) {
	o := compare.DefaultOptions()
	if c.basis != nil {
		if *c.basis != string(compare.BasisRPS) && *c.basis != string(compare.BasisRatio) {
			return o, fmt.Errorf("--basis %s: want rps or ratio", *c.basis)
		}
		o.Basis = compare.Basis(*c.basis)
	}
	if !(*c.alpha > 0 && *c.alpha < 1) {
		return o, fmt.Errorf("--alpha %g: want 0 < α < 1", *c.alpha)
	}
	o.Alpha, o.MinChange = *c.alpha, float64(c.minChange)
	return o, nil
}
