package ab

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"regexp"
	"testing"

	"github.com/tfbench/tfbench/harness/equiv"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestEquivalence(t *testing.T) {
	fortunes := `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th></tr></table></body></html>`
	changed := `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table class="f"><tr><th>id</th></tr></table></body></html>`
	base := []run.Page{
		{Test: "json", Type: model.JSON, Path: "/json", Status: 200, Body: []byte(`{"message":"Hello, World!"}`)},
		{Test: "db", Type: model.DB, Path: "/db", Status: 200, Body: []byte(`{"id":17,"randomNumber":4174}`)},
		{Test: "fortunes", Type: model.Fortunes, Path: "/fortunes", Status: 200, Body: []byte(fortunes)},
		{Test: "page", Type: model.Page, Path: "/ssr?rows=10", Status: 200, Body: []byte(`<p data-t="1">x</p>`)},
		{Test: "plaintext", Type: model.Plaintext, Path: "/plaintext", Err: "GET http://x/plaintext: connection refused"},
		{Test: "queries", Type: model.Queries, Path: "/queries?queries=20", Status: 200, Body: []byte(`[]`)},
		{Test: "updates", Type: model.Updates, Path: "/updates?queries=20", Status: 200, Body: []byte(`[]`)},
	}
	nw := []run.Page{
		{Test: "updates", Type: model.Updates, Path: "/upd?queries=20", Status: 500, Body: []byte(`oops`)},
		{Test: "json", Type: model.JSON, Path: "/json", Status: 200, Body: []byte(`{"message":"Hello, World!"}`)},
		{Test: "db", Type: model.DB, Path: "/db", Status: 200, Body: []byte(`{"id":9313,"randomNumber":12}`)},
		{Test: "fortunes", Type: model.Fortunes, Path: "/fortunes", Status: 200, Body: []byte(changed)},
		{Test: "page", Type: model.Page, Path: "/ssr?rows=10", Status: 200, Body: []byte(`<p data-t="2">x</p>`)},
		{Test: "plaintext", Type: model.Plaintext, Path: "/plaintext", Status: 200, Body: []byte("Hello, World!")},
	}
	masks := []*regexp.Regexp{regexp.MustCompile(`data-t="[0-9]+"`)}
	got := Equivalence(base, nw, masks)
	k := len(`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table`)
	want := []results.Equivalence{
		{Test: "json", Path: "/json", Identical: true, Offset: -1},
		{Test: "db", Path: "/db", Identical: true, Offset: -1, Masks: 2},
		{Test: "fortunes", Path: "/fortunes", Offset: k, Base: fortunes[k-40 : k+40], New: changed[k-40 : k+40]},
		{Test: "page", Path: "/ssr?rows=10", Identical: true, Offset: -1, Masks: 1},
		{Test: "plaintext", Path: "/plaintext", Offset: -1, Error: "base: GET http://x/plaintext: connection refused"},
		{Test: "queries", Path: "/queries?queries=20", Offset: -1, Error: "new: no response"},
		{Test: "updates", Path: "/updates?queries=20 → /upd?queries=20", Offset: -1, Error: "status 200 (base), 500 (new)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	// The recorded verdict prints as equiv's does.
	v := equiv.Compare([]byte(fortunes), []byte(changed), masks)
	if got[2].Text() != v.String() || got[0].Text() != "identical (0 masks applied)" || got[4].Text() != "not compared: base: GET http://x/plaintext: connection refused" {
		t.Errorf("texts %q (want %q), %q, %q", got[2].Text(), v.String(), got[0].Text(), got[4].Text())
	}
}

func TestMasksUnion(t *testing.T) {
	a := &framework.Spec{Name: "x", Masks: []*regexp.Regexp{regexp.MustCompile(`a+`), regexp.MustCompile(`b+`)}}
	b := &framework.Spec{Name: "x", Masks: []*regexp.Regexp{regexp.MustCompile(`b+`), regexp.MustCompile(`c+`)}}
	var got []string
	for _, re := range Masks(run.Target{Spec: a}, run.Target{Spec: b}) {
		got = append(got, re.String())
	}
	if !reflect.DeepEqual(got, []string{"a+", "b+", "c+"}) {
		t.Errorf("union %v", got)
	}
}

// TestCheck: Run's BeforeMeasure prints a line per test; a target that
// cannot be fetched makes every test "not compared"; RequireIdentical
// turns any of it into ErrDiffers naming the tests.
func TestCheck(t *testing.T) {
	spec := &framework.Spec{Name: "x", Variants: []framework.Variant{{Name: "a"}, {Name: "b"}}}
	s := &suite.Suite{Tests: []suite.Test{{Name: "json", Type: model.JSON, Path: "/json"}, {Name: "fortunes", Type: model.Fortunes, Path: "/fortunes"}}}
	c := Config{Run: run.Config{Suite: s}, Base: run.Target{Spec: spec, Variant: spec.Variants[0]}, New: run.Target{Spec: spec, Variant: spec.Variants[1]}}
	pages := map[string][]run.Page{
		"a": {{Test: "json", Path: "/json", Status: 200, Body: []byte("{}")}, {Test: "fortunes", Path: "/fortunes", Status: 200, Body: []byte("<p>a</p>")}},
		"b": {{Test: "json", Path: "/json", Status: 200, Body: []byte("{}")}, {Test: "fortunes", Path: "/fortunes", Status: 200, Body: []byte("<p>b</p>")}},
	}
	fetch := func(ctx context.Context, tg run.Target) ([]run.Page, error) {
		if p, ok := pages[tg.Variant.Name]; ok {
			return p, nil
		}
		return nil, errors.New("x/" + tg.Variant.Name + ": start failed: exit status 1")
	}
	var out bytes.Buffer
	c.Out = &out
	es, err := c.check(context.Background(), fetch)
	if err != nil || len(es) != 2 || !es[0].Identical || es[1].Offset != 3 {
		t.Fatalf("%+v %v", es, err)
	}
	if want := "equivalence json: identical (0 masks applied)\nequivalence fortunes: differs at byte 3: base \"<p>a</p>\" new \"<p>b</p>\"\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	c.RequireIdentical = true
	if _, err := c.check(context.Background(), fetch); !errors.Is(err, ErrDiffers) || err.Error() != "pages differ before measuring: fortunes at byte 3" {
		t.Errorf("require identical: %v", err)
	}
	delete(pages, "b")
	out.Reset()
	es, err = c.check(context.Background(), fetch)
	if err == nil || err.Error() != "pages differ before measuring: json not compared, fortunes not compared" {
		t.Errorf("new not started: %v", err)
	}
	if len(es) != 2 || es[1].Error != "new: x/b: start failed: exit status 1" || es[1].Path != "/fortunes" {
		t.Errorf("verdicts %+v", es)
	}
}
