package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// TestRecorderProfile: profiles are written as results.json's "profiles"
// and read back, requests included; a file without them has no such key
// (the field is additive: schema version 1 either way), nor a record
// without requests (an older file reads as 0 requests).
func TestRecorderProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	r, err := NewRecorder(path, &File{RunID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), `"profiles"`) {
		t.Errorf("a run without profiles writes the key:\n%s", data)
	}
	p := Profile{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "queries", N: 20, Connections: 64, Seconds: 20, Requests: 4183,
		Files: []string{"profiles/node-http/default/queries.cpuprofile"}}
	if err := r.Profile(p); err != nil {
		t.Fatal(err)
	}
	if err := r.Profile(Profile{ID: model.ID{Framework: "x", Variant: "default"}, Test: "json", Connections: 8, Seconds: 1, Error: "no profile written"}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.SchemaVersion != SchemaVersion || len(f.Profiles) != 2 || f.Profiles[0].Files[0] != p.Files[0] || f.Profiles[0].N != 20 || f.Profiles[0].Requests != 4183 || f.Profiles[1].Error != "no profile written" || f.Profiles[1].Requests != 0 {
		t.Errorf("read back %+v", f.Profiles)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), `"requests": `); n != 1 || !strings.Contains(string(data), `"requests": 4183`) {
		t.Errorf("want one \"requests\": 4183 key, got %d:\n%s", n, data)
	}
}
