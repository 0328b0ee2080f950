package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// streamCases are the checked rows and parts values beyond the test's sizes
// (the contract's clamps), each with the worst verdict a wrong body gets: rows
// as the page's (pageCases), then parts foo -> 4, 0 -> 1, 17 -> 16 and parts
// above rows (3 rows in 4 parts -> 3 parts).
var streamCases = []struct {
	rows, parts string
	most        model.Verdict
}{
	{"0", "", model.Fail}, {"foo", "", model.Fail}, {"10001", "", model.Warn},
	{"100", "foo", model.Fail}, {"100", "0", model.Fail}, {"100", "17", model.Fail}, {"3", "4", model.Fail},
}

// stream verifies a stream test: every size of c.Rows in c.Parts parts
// against the target's World, the streamCases, and the anti-caching change
// (the page's, on the smallest size). A path without {k} (K written in it)
// skips the parts cases.
func (v *verifier) stream(ctx context.Context, c Check) (Result, *fetched) {
	r := pass()
	if !strings.Contains(c.Path, "{n}") {
		r.add(model.Fail, "path %q of test %q has no {n} where the rows value goes (stream rules)", c.Path, c.Name)
		return r, nil
	}
	fixedK := !strings.Contains(c.Path, "{k}") // K in the path: no parts cases
	parts := c.Parts
	if parts == 0 {
		parts = suite.DefaultParts
	}
	sizes := c.Rows
	if len(sizes) == 0 {
		sizes = suite.DefaultRows
	}
	world, err := v.world(ctx)
	if err != nil {
		r.add(model.Fail, "test %q: cannot check the page's rows against World: %v", c.Name, err)
	}
	fill := func(n, k string) string { return strings.ReplaceAll(suite.FillPath(c.Path, n), "{k}", k) }
	var first *fetched
	for _, n := range sizes {
		path := suite.FillParts(suite.PathFor(c.Path, n), parts)
		f, err := v.get(ctx, c.Type, path)
		if err != nil {
			r.add(model.Fail, "GET %s: %v", path, err)
			continue
		}
		if first == nil {
			first = &f
		}
		rows := ExpectedPageRows(n)
		one := streamResponse(world, rows, ExpectedStreamParts(parts, rows), model.Fail, f.status, f.header, f.body)
		r.merge(one, "GET "+path+": ")
		if n == slices.Max(sizes) {
			r.PageBytes = len(f.body)
		}
	}
	for _, k := range streamCases {
		if fixedK && k.parts != "" {
			continue
		}
		kq, kn := k.parts, paramInt(k.parts, suite.DefaultParts)
		if kq == "" { // the test's parts, an int until the path is built
			kq, kn = strconv.Itoa(parts), parts
		}
		path := fill(k.rows, kq)
		f, err := v.get(ctx, c.Type, path)
		if err != nil {
			r.addCapped(model.Fail, k.most, "GET %s: %v", path, err)
			continue
		}
		rows := ExpectedPageRows(paramInt(k.rows, 1))
		r.merge(streamResponse(world, rows, ExpectedStreamParts(kn, rows), k.most, f.status, f.header, f.body), "GET "+path+": ")
	}
	if world != nil {
		n := ExpectedPageRows(slices.Min(sizes))
		v.streamAntiCache(ctx, c, world, suite.FillParts(suite.PathFor(c.Path, n), parts), n, ExpectedStreamParts(parts, n), &r)
	}
	return r, first
}

// streamAntiCache changes World row antiCacheRow (at most n) in the
// target's database, requires the new value in the next stream page at
// path (else cached) and restores it on every path.
func (v *verifier) streamAntiCache(ctx context.Context, c Check, world World, path string, n, parts int, r *Result) {
	k, old, changed, restore, ok := v.changeWorldRow(ctx, c, world, n, "anti-caching check", r)
	if !ok {
		return
	}
	defer restore()
	f, err := v.get(ctx, c.Type, path)
	if err != nil {
		r.add(model.Fail, "GET %s (after setting World row %d's randomNumber to %d): %v", path, k, changed, err)
		return
	}
	after := slices.Clone(world)
	after[k-1] = changed
	one := pass()
	checkStream(&one, f.body, after, n, parts, model.Fail)
	cached := fmt.Sprintf("randomNumber %q, want %q", strconv.FormatInt(old, 10), strconv.FormatInt(changed, 10))
	for _, reason := range one.Reasons {
		if strings.Contains(reason, cached) {
			r.add(model.Fail, "GET %s: row %d: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", path, k, old, changed)
			return
		}
	}
}
