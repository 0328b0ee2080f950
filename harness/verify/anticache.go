package verify

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// fortunes verifies the fortunes test: the page as it is, then, if the
// server answered 200, the anti-caching check (antiCache).
func (v *verifier) fortunes(ctx context.Context, c Check) (Result, *fetched) {
	r, first, f := v.fetchAndCheck(ctx, c)
	if f != nil && f.status == http.StatusOK {
		v.antiCache(ctx, c, first, &r)
	}
	return r, f
}

// antiCache inserts a Fortune row needing escaping into the target's
// database, requires it escaped and sorted in the next page (else cached:
// TFB rules, fortunes) and deletes it; reasons first gave are not repeated.
func (v *verifier) antiCache(ctx context.Context, c Check, first Result, r *Result) {
	db, err := v.database()
	if err != nil {
		r.add(model.Fail, "test %q: cannot run the fortunes anti-caching check: %v", c.Name, err)
		return
	}
	msg := fmt.Sprintf(`<b>tfbench check %04x</b> & "q"`, rand.IntN(0x10000))
	id, err := db.InsertFortune(ctx, msg)
	row := fortune{ID: id, Message: msg}
	if err != nil {
		r.add(model.Fail, "test %q: fortunes anti-caching check: %v", c.Name, err)
		return
	}
	defer func() {
		if err := db.DeleteFortune(context.WithoutCancel(ctx), row.ID); err != nil {
			r.add(model.Fail, "test %q: fortunes anti-caching check: %v; remove it before load", c.Name, err)
		}
	}()
	f, err := v.get(ctx, c.Type, c.Path)
	if err != nil {
		r.add(model.Fail, "GET %s (after inserting Fortune row %d): %v", c.Path, row.ID, err)
		return
	}
	if tableLacksRow(f.body, row.ID) {
		r.add(model.Fail, "GET %s: the page does not show Fortune row %d %q inserted into the database just before: the server caches the page or its rows (TFB rules, fortunes: load every Fortune row per request, no caching)",
			c.Path, row.ID, row.Message)
		return
	}
	var one Result
	checkFortunesPage(&one, f.body, newExpectedPage(renderPage(pageRows(row))), false)
	prefix := fmt.Sprintf("GET %s (after inserting Fortune row %d %q): ", c.Path, row.ID, row.Message)
	for _, reason := range one.Reasons {
		if !slices.Contains(first.Reasons, reason) {
			r.add(model.Fail, "%s%s", prefix, reason)
		}
	}
}

// tableLacksRow reports whether page has a table none of whose data rows
// has id in its first cell. A page without a table is left to the general
// comparison.
func tableLacksRow(page []byte, id int) bool {
	got := scanPage(page)
	start, end, ok := tableSpan(got.tokens)
	if !ok {
		return false
	}
	prefix := strconv.Itoa(id) + "\x00"
	return !slices.ContainsFunc(tableRows(got.tokens[start:end]), func(row string) bool { return strings.HasPrefix(row, prefix) })
}
