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

// pageCases are the checked rows values beyond the test's sizes and the
// worst verdict a wrong body gets for each (the page contract: 0 -> 1 row,
// foo -> 1, 10001 -> 10000, a warn if wrong as TFB's queries=501 case).
var pageCases = []queryCase{{"0", model.Fail}, {"foo", model.Fail}, {"10001", model.Warn}}

// antiCacheRow is the World id the page anti-caching check changes, or the
// smallest size's last row when that is smaller.
const antiCacheRow = 3

// page verifies a page test: every size of c.Rows against the target's
// World table, the pageCases and (unless c.Cache) pageAntiCache. PageBytes
// is the largest page's; the first response is returned for the Date re-check.
func (v *verifier) page(ctx context.Context, c Check) (Result, *fetched) {
	r := pass()
	if !strings.Contains(c.Path, "{n}") {
		r.add(model.Fail, "path %q of test %q has no {n} where the rows value goes (page rules)", c.Path, c.Name)
		return r, nil
	}
	sizes := c.Rows
	if len(sizes) == 0 {
		sizes = suite.DefaultRows
	}
	world, err := v.world(ctx)
	if err != nil {
		r.add(model.Fail, "test %q: cannot check the page's rows against World: %v", c.Name, err)
	}
	smallest, headline := slices.Min(sizes), slices.Max(sizes)
	var first *fetched
	var smallestReasons []string
	for _, n := range sizes {
		path := suite.PathFor(c.Path, n)
		f, err := v.get(ctx, c.Type, path)
		if err != nil {
			r.add(model.Fail, "GET %s: %v", path, err)
			continue
		}
		if first == nil {
			first = &f
		}
		one := pageResponse(world, ExpectedPageRows(n), model.Fail, f.status, f.header, f.body)
		r.merge(one, "GET "+path+": ")
		if n == headline {
			r.PageBytes = len(f.body)
		}
		if n == smallest {
			smallestReasons = one.Reasons
		}
	}
	for _, k := range pageCases {
		path := suite.FillPath(c.Path, k.q)
		f, err := v.get(ctx, c.Type, path)
		if err != nil {
			r.addCapped(model.Fail, k.most, "GET %s: %v", path, err)
			continue
		}
		r.merge(pageResponse(world, ExpectedPageRows(paramInt(k.q, 1)), k.most, f.status, f.header, f.body), "GET "+path+": ")
	}
	if world != nil && !c.Cache {
		v.pageAntiCache(ctx, c, world, ExpectedPageRows(smallest), smallestReasons, &r)
	}
	return r, first
}

// world reads the target's World table.
func (v *verifier) world(ctx context.Context) (World, error) {
	db, err := v.database()
	if err != nil {
		return nil, err
	}
	m, err := db.World(ctx)
	if err != nil {
		return nil, err
	}
	return worldFromMap(m, db.Where())
}

// pageAntiCache changes World row antiCacheRow (at most n) in the target's
// database, requires the new value in the next page of n rows (else cached)
// and restores it on every path; firstReasons are not repeated.
func (v *verifier) pageAntiCache(ctx context.Context, c Check, world World, n int, firstReasons []string, r *Result) {
	k, old, changed, restore, ok := v.changeWorldRow(ctx, c, world, n, "page anti-caching check", r)
	if !ok {
		return
	}
	defer restore()
	path := suite.PathFor(c.Path, n)
	prefix := fmt.Sprintf("GET %s (after setting World row %d's randomNumber to %d): ", path, k, changed)
	f, err := v.get(ctx, c.Type, path)
	if err != nil {
		r.add(model.Fail, "%s%v", prefix, err)
		return
	}
	if got := pageTable(f.body); len(got.rows) >= k && len(got.rows[k-1]) == 2 && strings.TrimSpace(got.rows[k-1][1]) == strconv.FormatInt(old, 10) {
		r.add(model.Fail, "GET %s: row %d: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", path, k, old, changed)
		return
	}
	after := slices.Clone(world)
	after[k-1] = changed
	one := pageResponse(after, n, model.Fail, f.status, f.header, f.body)
	for _, reason := range one.Reasons {
		if !slices.Contains(firstReasons, reason) {
			r.add(model.Fail, "%s%s", prefix, reason)
		}
	}
}

// changeWorldRow changes World row antiCacheRow (at most n) in the target's
// database to another randomNumber for an anti-caching check named check;
// restore puts the old value back (a failure is added to r). ok is false when
// there is no row to change or the change failed (added to r).
func (v *verifier) changeWorldRow(ctx context.Context, c Check, world World, n int, check string, r *Result) (k int, old, changed int64, restore func(), ok bool) {
	k = min(antiCacheRow, n, len(world))
	if k < 1 {
		return 0, 0, 0, nil, false // an empty World table already failed every row
	}
	db, err := v.database()
	if err != nil {
		r.add(model.Fail, "test %q: cannot run the %s: %v", c.Name, check, err)
		return 0, 0, 0, nil, false
	}
	old = world[k-1]
	changed = old%worldMax + 1
	if err := db.SetRandomNumber(ctx, k, changed); err != nil {
		r.add(model.Fail, "test %q: %s: %v", c.Name, check, err)
		return 0, 0, 0, nil, false
	}
	restore = func() {
		if err := db.SetRandomNumber(context.WithoutCancel(ctx), k, old); err != nil {
			r.add(model.Fail, "test %q: %s: %v; World row %d holds %d, restore %d before load", c.Name, check, err, k, changed, old)
		}
	}
	return k, old, changed, restore, true
}
