package results

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRecorderEquivalence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	r, err := NewRecorder(path, &File{RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "equivalence") {
		t.Errorf("a run without verdicts writes an equivalence key:\n%s", data)
	}
	es := []Equivalence{
		{Test: "json", Path: "/json", Identical: true, Offset: -1},
		{Test: "fortunes", Path: "/fortunes", Offset: 69, Base: `<table><tr>`, New: `<table class="f">`, Masks: 2},
		{Test: "page", Path: "/ssr?rows=10000", Offset: -1, Error: "new: start failed"},
	}
	if err := r.Equivalence(es...); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Equivalence, es) {
		t.Errorf("read back %+v", f.Equivalence)
	}
}
