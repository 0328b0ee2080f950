package verify

import (
	"context"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// queryCase is one queries value TFB checks and the worst verdict a wrong
// body gets for it.
type queryCase struct {
	q    string
	most model.Verdict
}

// queryCases are TFB's checked values of the queries parameter, in TFB's
// order (TFB rules, queries: 2 -> 2 rows, 0 -> 1, foo -> 1, 501 -> 500
// (a warn if wrong), empty -> 1).
var queryCases = []queryCase{{"2", model.Fail}, {"0", model.Fail}, {"foo", model.Fail}, {"501", model.Warn}, {"", model.Fail}}

// cases verifies a queries or updates test by the five queryCases (and for
// updates countUpdates), returning the first case's response for the Date
// re-check.
func (v *verifier) cases(ctx context.Context, c Check) (Result, *fetched) {
	r := pass()
	if !strings.Contains(c.Path, "{n}") {
		r.add(model.Fail, "path %q of test %q has no {n} where the queries value goes (TFB rules, %s)", c.Path, c.Name, c.Type)
		return r, nil
	}
	var before map[int64]int64
	if c.Type == model.Updates {
		before = v.worldSnapshot(ctx, c, &r)
	}
	var first *fetched
	for _, k := range queryCases {
		path := suite.FillPath(c.Path, k.q)
		f, err := v.get(ctx, c.Type, path)
		if err != nil {
			r.addCapped(model.Fail, k.most, "GET %s: %v", path, err)
			continue
		}
		if first == nil {
			first = &f
		}
		r.merge(response(c.Type, ExpectedRows(paramInt(k.q, minRows)), k.most, f.status, f.header, f.body), "GET "+path+": ")
		if before != nil && k.q == "501" {
			if after := v.worldSnapshot(ctx, c, &r); after != nil {
				countUpdates(&r, path, before, after)
			}
		}
	}
	return r, first
}

// worldSnapshot reads the target's World table; a failure to read it fails
// the updates check, which cannot be verified without it.
func (v *verifier) worldSnapshot(ctx context.Context, c Check, r *Result) map[int64]int64 {
	db, err := v.database()
	if err == nil {
		var world map[int64]int64
		if world, err = db.World(ctx); err == nil {
			return world
		}
	}
	r.add(model.Fail, "test %q: cannot check that updates are written: %v (TFB rules, updates)", c.Name, err)
	return nil
}

// countUpdates applies the updates write rule (TFB rules, updates): over 95%
// of the queries=501 case's 500 rows must change, else warn, and 90% or fewer
// fail; as in TFB, before is read ahead of all five cases.
func countUpdates(r *Result, path string, before, after map[int64]int64) {
	changed := 0
	for id, n := range after {
		if old, ok := before[id]; ok && old != n {
			changed++
		}
	}
	switch {
	case changed == 0:
		r.add(model.Fail, "GET %s: no World row changed in the database (TFB rules, updates: each row's new randomNumber is written back)", path)
	case changed*10 <= maxRows*9:
		r.add(model.Fail, "GET %s: %d World rows changed in the database, want more than 90%% of %d (TFB rules, updates: 90%% or fewer is a fail)", path, changed, maxRows)
	case changed*20 <= maxRows*19:
		r.add(model.Warn, "GET %s: %d World rows changed in the database, want more than 95%% of %d (TFB rules, updates: 95%% or fewer is a warn)", path, changed, maxRows)
	}
}
