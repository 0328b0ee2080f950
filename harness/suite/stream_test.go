package suite

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// TestStreamTest: a stream test takes rows and parts (default 4), its
// default path holds {n} and {k}, and it takes rate and probe as a page test.
func TestStreamTest(t *testing.T) {
	s, err := Parse("s.yaml", []byte("name: s\ndefaults: {probe: 20ms, rate: 3}\ntests:\n  - {name: stream, type: stream, rows: [1000, 10000], parts: 8}\n  - {name: plain, type: stream}\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, plain := s.Tests[0], s.Tests[1]
	if st.Path != "/stream?rows={n}&parts={k}" || fmt.Sprint(st.Queries) != "[1000 10000]" || st.Parts != 8 || st.Headline() != 10000 || st.Rate != 3 || st.Probe != 20*time.Millisecond {
		t.Errorf("stream: path %q rows %v parts %d headline %d rate %g probe %s", st.Path, st.Queries, st.Parts, st.Headline(), st.Rate, st.Probe)
	}
	if plain.Parts != 4 || fmt.Sprint(plain.Queries) != "[10 100 1000 10000]" {
		t.Errorf("plain stream: parts %d rows %v, want 4 and the page sizes", plain.Parts, plain.Queries)
	}
	if got := PathFor(FillParts(st.Path, st.Parts), 1000); got != "/stream?rows=1000&parts=8" {
		t.Errorf("filled path %q", got)
	}
	if got := FillParts("/ssr?rows={n}", 4); got != "/ssr?rows={n}" {
		t.Errorf("FillParts on a page path: %q", got)
	}
	if !model.Stream.TakesN() || !model.Stream.IsPage() || model.Stream.Accept() != model.Page.Accept() || !model.Stream.Valid() || model.Fortunes.IsPage() {
		t.Errorf("stream: TakesN %v IsPage %v Accept %q", model.Stream.TakesN(), model.Stream.IsPage(), model.Stream.Accept())
	}
	if slices.Index(model.Types, model.Stream) <= slices.Index(model.Types, model.Page) {
		t.Errorf("model.Types %v lacks stream after page", model.Types)
	}
}

// TestLoadShippedStreamTest: suites/ssr-extra.yaml's stream test is the
// page suite's settings with rows 1,000 and 10,000 in 4 parts.
func TestLoadShippedStreamTest(t *testing.T) {
	s, err := Load(filepath.Join("..", "..", "suites", "ssr-extra.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(s.Tests, func(t Test) bool { return t.Name == "stream" })
	if i < 0 {
		t.Fatalf("ssr-extra: no stream test in %+v", s.Tests)
	}
	st := s.Tests[i]
	if st.Type != model.Stream || st.Parts != 4 || fmt.Sprint(st.Queries) != "[1000 10000]" || st.Path != "/stream?rows={n}&parts={k}" {
		t.Errorf("stream test %+v", st)
	}
	if st.Rate != 3 || st.RateConnections != 2 || st.Probe != 20*time.Millisecond || fmt.Sprint(st.Concurrency) != "[4 16]" || st.MinResponses != 10 || s.Rounds != 3 {
		t.Errorf("stream settings %+v, %d rounds; want ssr.yaml's", st.Settings, s.Rounds)
	}
}
