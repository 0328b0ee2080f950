package model

import (
	"encoding/json"
	"testing"
)

func TestIDStringAndParse(t *testing.T) {
	id := ID{Framework: "go-stdlib", Variant: "default@new"}
	if id.String() != "go-stdlib/default@new" {
		t.Errorf("String = %q", id.String())
	}
	if got, err := ParseID(id.String()); err != nil || got != id {
		t.Errorf("ParseID(%q) = %+v, %v", id.String(), got, err)
	}
	for _, bad := range []string{"go-stdlib", "/default", "go-stdlib/", ""} {
		if _, err := ParseID(bad); err == nil || err.Error() != `"`+bad+`" is not framework/variant` {
			t.Errorf("ParseID(%q): %v", bad, err)
		}
	}
	if Reference.String() != "go-stdlib/default" {
		t.Errorf("Reference = %s", Reference)
	}
}

// TestKeyJSON: the embedded ID keeps results.json's sample key flat, in
// the order it always had.
func TestKeyJSON(t *testing.T) {
	k := Key{ID: ID{Framework: "nextjs", Variant: "default"}, Runtime: "node 24.22.3", Test: "json", Type: JSON, Connections: 64, Pipeline: 1, Engine: "raw", Round: 2}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"framework":"nextjs","variant":"default","runtime":"node 24.22.3","test":"json","type":"json","connections":64,"pipeline":1,"engine":"raw","round":2}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestPeaksAt(t *testing.T) {
	a := sample(16, 1, 100, true)
	b := sample(16, 1, 300, true)
	b.Runtime = "other" // a second runtime of the same variant: the later series wins
	q := sample(16, 1, 50, true)
	q.Test, q.N = "queries", 20
	p := PeaksOf([]Sample{a, b, q})
	if len(p.List) != 3 {
		t.Fatalf("%d series, want 3", len(p.List))
	}
	got, ok := p.At(Reference, "json", 0)
	if !ok || got.Runtime != "other" || got.Level.Median != 300 {
		t.Errorf("At json = %+v %v, want the later runtime's 300", got, ok)
	}
	if got, ok := p.At(Reference, "queries", 20); !ok || got.Level.Median != 50 {
		t.Errorf("At queries N=20 = %+v %v", got, ok)
	}
	if _, ok := p.At(Reference, "queries", 1); ok {
		t.Error("At found an N that was not measured")
	}
}

func TestCutSelector(t *testing.T) {
	if n, v, ok := CutSelector("engine:pool"); n != "engine" || v != "pool" || !ok {
		t.Errorf("engine:pool → %q %q %v", n, v, ok)
	}
	if n, _, ok := CutSelector("engine"); n != "engine" || ok {
		t.Errorf("engine → %q %v", n, ok)
	}
}
