package run

import (
	"fmt"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// TestChecksStream: a stream test's check carries its sizes and parts, its
// path the adapter's endpoint with {k} left for verification's parts cases; an adapter without
// `endpoints: stream` is n/a with its `unsupported:` reason, or with the
// missing endpoint named.
func TestChecksStream(t *testing.T) {
	st := suite.Test{Name: "stream", Type: model.Stream, Path: "/stream?rows={n}&parts={k}", Queries: []int{1000, 10000}, Parts: 4}
	r := &runner{cfg: Config{Tests: []suite.Test{st}}}
	spec := &framework.Spec{Name: "x", Endpoints: map[model.TestType]string{model.Stream: "/s?rows={n}&k={k}"}}
	got := r.checks(Target{Spec: spec})
	want := []verify.Check{{Name: "stream", Type: model.Stream, Path: "/s?rows={n}&k={k}", Rows: []int{1000, 10000}, Parts: 4}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checks %+v, want %+v", got, want)
	}
	if got := testPath(Target{Spec: spec}, st); got != "/s?rows={n}&k=4" {
		t.Errorf("testPath %q, want {k} filled", got)
	}
	if why := notApplicable(Target{Spec: spec}, st); why != "" {
		t.Errorf("n/a %q on an adapter with a stream endpoint", why)
	}
	for _, tc := range []struct {
		spec *framework.Spec
		want string
	}{
		{&framework.Spec{Name: "rr", Unsupported: map[model.TestType]string{model.Stream: "renders the whole page for a bot"}}, "renders the whole page for a bot"},
		{&framework.Spec{Name: "plain"}, "no stream endpoint: plain's framework.yaml has no endpoints: stream (docs/adapters.md)"},
	} {
		if got := notApplicable(Target{Spec: tc.spec}, st); got != tc.want {
			t.Errorf("%s: n/a %q, want %q", tc.spec.Name, got, tc.want)
		}
		if got := r.checks(Target{Spec: tc.spec}); len(got) != 0 {
			t.Errorf("%s: checks %+v, want none", tc.spec.Name, got)
		}
	}
}
