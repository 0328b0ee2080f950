package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/tfbench/tfbench/harness/equiv"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

// ErrDiffers is wrapped by Run's error when Config.RequireIdentical is set
// and a test's pages differ or could not be compared: "pages differ before
// measuring: fortunes at byte 69".
var ErrDiffers = errors.New("pages differ before measuring")

// check is Run's run.Config.BeforeMeasure: it fetches both targets' pages,
// compares them (Equivalence), prints one line per test to c.Out and, with
// RequireIdentical, returns ErrDiffers naming every test not identical.
func (c Config) check(ctx context.Context, fetch run.Fetch) ([]results.Equivalence, error) {
	tests := c.Run.Tests
	if len(tests) == 0 && c.Run.Suite != nil {
		tests = c.Run.Suite.Tests
	}
	var sides [2][]run.Page
	for i, t := range []run.Target{c.Base, c.New} {
		pages, err := fetch(ctx, t)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			pages = failed(t, tests, err)
		}
		sides[i] = pages
	}
	es := Equivalence(sides[0], sides[1], Masks(c.Base, c.New))
	out := c.Out
	if out == nil {
		out = io.Discard
	}
	var bad []string
	for _, e := range es {
		fmt.Fprintf(out, "equivalence %s: %s\n", e.Test, e.Text())
		switch {
		case e.Error != "":
			bad = append(bad, e.Test+" not compared")
		case !e.Identical:
			bad = append(bad, fmt.Sprintf("%s at byte %d", e.Test, e.Offset))
		}
	}
	if c.RequireIdentical && len(bad) > 0 {
		return es, fmt.Errorf("%w: %s", ErrDiffers, strings.Join(bad, ", "))
	}
	return es, nil
}

// failed is one page per test carrying err: target t could not be
// fetched at all. Path is what run's Fetch would have requested.
func failed(t run.Target, tests []suite.Test, err error) []run.Page {
	pages := make([]run.Page, len(tests))
	for i, test := range tests {
		path := suite.PathFor(suite.FillParts(t.Spec.Endpoint(test.Type, test.Path), test.Parts), max(test.Headline(), 1))
		pages[i] = run.Page{Test: test.Name, Type: test.Type, Path: path, Err: err.Error()}
	}
	return pages
}

// Masks is the union of both targets' adapter masks (framework.yaml
// `masks:`), base's first, each pattern once; equiv.Compare adds its
// defaults.
func Masks(base, new run.Target) []*regexp.Regexp {
	var out []*regexp.Regexp
	seen := map[string]bool{}
	for _, t := range []run.Target{base, new} {
		for _, re := range t.Spec.Masks {
			if !seen[re.String()] {
				seen[re.String()] = true
				out = append(out, re)
			}
		}
	}
	return out
}

// Equivalence compares base's and new's pages by test name, in base's order,
// with equiv.Compare and masks (plus equiv.RandomRows for db, queries, updates).
// A missing or failed page, or differing statuses, leave Error set instead.
func Equivalence(base, new []run.Page, masks []*regexp.Regexp) []results.Equivalence {
	byTest := map[string]run.Page{}
	for _, p := range new {
		byTest[p.Test] = p
	}
	var out []results.Equivalence
	for _, b := range base {
		e := results.Equivalence{Test: b.Test, Path: b.Path, Offset: -1}
		n, ok := byTest[b.Test]
		if ok && n.Path != b.Path && n.Path != "" && b.Path != "" {
			e.Path = b.Path + " → " + n.Path
		} else if e.Path == "" {
			e.Path = n.Path
		}
		switch {
		case b.Err != "":
			e.Error = "base: " + b.Err
		case !ok:
			e.Error = "new: no response"
		case n.Err != "":
			e.Error = "new: " + n.Err
		case b.Status != n.Status:
			e.Error = fmt.Sprintf("status %d (base), %d (new)", b.Status, n.Status)
		}
		if e.Error == "" {
			ms := masks
			if b.Type == model.DB || b.Type == model.Queries || b.Type == model.Updates {
				ms = append([]*regexp.Regexp{equiv.RandomRows}, masks...)
			}
			v := equiv.Compare(b.Body, n.Body, ms)
			e.Identical, e.Offset, e.Base, e.New, e.Masks = v.Identical, v.Offset, v.Base, v.New, v.Masks
		}
		out = append(out, e)
	}
	return out
}
