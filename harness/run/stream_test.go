package run

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/load"
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

// TestStreamOptions: a stream shot's load options check with the timeline
// against the copy's World and keep the page's body cap; an unreadable copy
// fails every checked response.
func TestStreamOptions(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "copy.db")
	if _, err := dataset.Ensure(DatasetPath(work)); err != nil {
		t.Fatal(err)
	}
	if err := dataset.Copy(DatasetPath(work), path); err != nil {
		t.Fatal(err)
	}
	srv := &copyServer{path: path}
	r := &runner{}
	st := suite.Test{Name: "stream", Type: model.Stream, Parts: 4, Settings: suite.Settings{Timeout: 8e9}}
	var o load.Options
	rec := r.streamOptions(context.Background(), srv, st, shot{n: 10}, &o)
	if rec == nil || o.CheckTimeline == nil || o.MaxCheckBytes != pageCheckBytes {
		t.Fatalf("recorder %v, CheckTimeline set %v, MaxCheckBytes %d", rec, o.CheckTimeline != nil, o.MaxCheckBytes)
	}
	head := []byte("Server: x\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n")
	want := "part 0 missing: rows 1..2 not sent (want parts 0..3, each once); part 1 missing: rows 3..5 not sent (want parts 0..3, each once); part 2 missing: rows 6..7 not sent (want parts 0..3, each once); part 3 missing: rows 8..10 not sent (want parts 0..3, each once)"
	if err := o.CheckTimeline(200, head, []byte("<html></html>"), load.Timeline{}); err == nil || err.Error() != want {
		t.Errorf("an empty page: %v, want %q", err, want)
	}
	srv.path = filepath.Join(work, "missing.db")
	o = load.Options{}
	if rec := r.streamOptions(context.Background(), srv, st, shot{n: 10}, &o); rec != nil {
		t.Error("a recorder without a World")
	}
	want = "cannot check the rows: database " + srv.path + ": stat " + srv.path + ": no such file or directory"
	if err := o.CheckTimeline(200, head, nil, load.Timeline{}); err == nil || err.Error() != want {
		t.Errorf("a missing copy: %v, want %q", err, want)
	}
}
