package ab

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

// TestCheckStream: the stream page is compared as the other pages, at the
// headline N and the test's K (its {k} filled), masked bodies byte for
// byte; a side that cannot be fetched names the page it would have asked.
func TestCheckStream(t *testing.T) {
	spec := &framework.Spec{Name: "x", Variants: []framework.Variant{{Name: "a"}, {Name: "b"}},
		Endpoints: map[model.TestType]string{model.Stream: "/st?rows={n}&parts={k}"}, Masks: []*regexp.Regexp{regexp.MustCompile(`id="S:[0-9a-z]+"`)}}
	st := suite.Test{Name: "stream", Type: model.Stream, Path: "/stream?rows={n}&parts={k}", Queries: []int{1000, 10000}, Parts: 4}
	c := Config{Run: run.Config{Suite: &suite.Suite{Tests: []suite.Test{st}}}, Base: run.Target{Spec: spec, Variant: spec.Variants[0]}, New: run.Target{Spec: spec, Variant: spec.Variants[1]}}
	body := func(id string) []byte {
		return []byte(`<h1>World</h1><div hidden id="S:` + id + `"><table class="part" data-part="0"></table></div>`)
	}
	pages := map[string][]run.Page{
		"a": {{Test: "stream", Type: model.Stream, Path: "/st?rows=10000&parts=4", Status: 200, Body: body("0")}},
		"b": {{Test: "stream", Type: model.Stream, Path: "/st?rows=10000&parts=4", Status: 200, Body: body("r1")}},
	}
	fetch := func(ctx context.Context, tg run.Target) ([]run.Page, error) {
		if p, ok := pages[tg.Variant.Name]; ok {
			return p, nil
		}
		return nil, errors.New("x/" + tg.Variant.Name + ": start failed")
	}
	var out bytes.Buffer
	c.Out = &out
	es, err := c.check(context.Background(), fetch)
	if err != nil || len(es) != 1 || !es[0].Identical || es[0].Masks != 1 {
		t.Fatalf("%+v %v; want the stream pages identical after 1 mask", es, err)
	}
	if want := "equivalence stream: identical (1 masks applied)\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	pages["b"][0].Body = []byte(`<h1>World</h1><div hidden id="S:r1"><table class="part" data-part="1"></table></div>`)
	if es, _ := c.check(context.Background(), fetch); len(es) != 1 || es[0].Identical {
		t.Errorf("differing parts: %+v, want a difference", es)
	}
	delete(pages, "b")
	es, _ = c.check(context.Background(), fetch)
	if len(es) != 1 || es[0].Path != "/st?rows=10000&parts=4" || es[0].Error != "new: x/b: start failed" {
		t.Errorf("new not started: %+v, want the stream page's path at N = 10000 and K = 4", es)
	}
}
