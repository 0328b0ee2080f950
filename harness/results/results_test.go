package results

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/model"
)

func TestRecorderRewritesAfterEverySample(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	r, err := NewRecorder(path, &File{RunID: "r1", Suite: Suite{Name: "smoke", Hash: "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	h := hdrhistogram.New(1, 8_000_000, 3)
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v)
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: "go-stdlib"}, Test: "json", Round: i}, RPS: float64(100 * i), Histogram: enc}
		if err := r.Sample(s); err != nil {
			t.Fatal(err)
		}
		f, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Samples) != i || f.Samples[i-1].RPS != float64(100*i) || f.Status != Running {
			t.Fatalf("after sample %d the file holds %d samples, status %q", i, len(f.Samples), f.Status)
		}
	}
	if err := r.Finish(Complete); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != Complete || f.Finished.IsZero() || f.SchemaVersion != SchemaVersion || f.MethodVersion != MethodVersion {
		t.Errorf("file %+v", f)
	}
	back, err := hdrhistogram.Decode(f.Samples[0].Histogram)
	if err != nil {
		t.Fatal(err)
	}
	if back.TotalCount() != 1000 || back.ValueAtQuantile(50) != 500 || back.Max() != 1000 {
		t.Errorf("histogram round trip: count %d p50 %d max %d", back.TotalCount(), back.ValueAtQuantile(50), back.Max())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestReadRefusesOtherSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte(`{"schema_version": 99}`), 0o644)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "schema version 99, this tfbench reads version 1") {
		t.Errorf("err %v", err)
	}
	os.WriteFile(path, []byte(`not json`), 0o644)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "not a tfbench results file") {
		t.Errorf("err %v", err)
	}
}

func TestVerificationLookup(t *testing.T) {
	f := &File{Verifications: []Verification{{ID: model.ID{Framework: "a", Variant: "v"}, Test: "json", Status: "warn"}}}
	if v, ok := f.Verification(model.ID{Framework: "a", Variant: "v"}, "json"); !ok || v.Status != "warn" {
		t.Errorf("got %v %v", v, ok)
	}
	if _, ok := f.Verification(model.ID{Framework: "a", Variant: "v"}, "db"); ok {
		t.Error("found a verdict that does not exist")
	}
}

// A test binary carries build info: its version is its module's ("(devel)")
// or, with VCS stamps, a revision; never empty.
func TestTfbenchVersion(t *testing.T) {
	v := TfbenchVersion()
	if !regexp.MustCompile(`^(\(devel\)|v\d+\.\d+\.\d+.*|[0-9a-f]{40}(\+dirty)?)$`).MatchString(v) {
		t.Errorf("TfbenchVersion %q, want (devel), a module version or a 40-digit revision", v)
	}
}
