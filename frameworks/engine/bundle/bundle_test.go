package bundle

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/go-sourcemap/sourcemap"
)

func TestBuildRoutes(t *testing.T) {
	b, err := Build("testdata/basic")
	if err != nil {
		t.Fatal(err)
	}
	want := []Route{
		{Path: "/admin", File: "basic/routes/admin/index.ts"},
		{Path: "/admin/users", File: "basic/routes/admin/users.tsx"},
		{Path: "/", File: "basic/routes/index.tsx"},
		{Path: "/json", File: "basic/routes/json.ts"},
	}
	if !reflect.DeepEqual(b.Routes, want) {
		t.Errorf("Routes = %+v\nwant %+v", b.Routes, want)
	}
	// The generated entry passes the same table to start(), in the same order (route index = array index).
	for i, r := range want {
		entry := `{ path: "` + r.Path + `", file: "` + r.File + `", mod: `
		if !strings.Contains(b.Script, entry) {
			t.Errorf("route %d: script lacks %s", i, entry)
		}
	}
	if !strings.HasPrefix(b.Script, "(() => {\n") {
		t.Errorf("script starts %q, want an IIFE", b.Script[:min(len(b.Script), 40)])
	}
}

func TestBuildSyntaxError(t *testing.T) {
	_, err := Build("testdata/syntax")
	if err == nil {
		t.Fatal("Build of testdata/syntax succeeded, want a syntax error")
	}
	// broken.tsx line 5: the closing tag </tabel> does not match <table> (column 64, 1-based).
	want := `bundle testdata/syntax: syntax/routes/broken.tsx:5:64: Unexpected closing "tabel" tag does not match opening "table" tag`
	if got := err.Error(); got != want {
		t.Errorf("error = %q\nwant    %q", got, want)
	}
}

func TestBuildRouteErrors(t *testing.T) {
	for _, tc := range []struct{ dir, want string }{
		{"testdata/dup", "dup/routes/a.ts and dup/routes/a.tsx both define route /a"},
		{"testdata/noroutes", "no routes (*.ts or *.tsx files) in "},
		{"testdata/missing", "routes: lstat "},
	} {
		_, err := Build(tc.dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%s) error = %v, want it to contain %q", tc.dir, err, tc.want)
		}
	}
}

func TestSourceMap(t *testing.T) {
	b, err := Build("testdata/basic")
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Sources []string `json:"sources"`
	}
	if err := json.Unmarshal(b.SourceMap, &raw); err != nil {
		t.Fatal(err)
	}
	wantSources := map[string]bool{"basic/routes/index.tsx": true, "basic/components/Greeting.tsx": true, "engine:jsx.ts": true}
	for _, s := range raw.Sources {
		delete(wantSources, s)
	}
	if len(wantSources) > 0 {
		t.Errorf("sources %q lack %v", raw.Sources, wantSources)
	}

	sm, err := sourcemap.Parse(ScriptName+".map", b.SourceMap)
	if err != nil {
		t.Fatal(err)
	}
	// index.tsx line 6 is `  throw new Error("boom " + name);`; find the generated `throw` of that statement.
	lines := strings.Split(b.Script, "\n")
	found := false
	for i, l := range lines {
		if !strings.Contains(l, `"boom "`) {
			continue
		}
		col := strings.Index(l, "throw")
		if col < 0 {
			t.Fatalf("generated line %d %q has no throw", i+1, l)
		}
		// sourcemap.Source takes a 1-based line and a 0-based column, as V8's line and (column-1).
		file, _, line, srcCol, ok := sm.Source(i+1, col)
		if !ok || file != "basic/routes/index.tsx" || line != 6 || srcCol != 2 {
			t.Errorf("generated %d:%d maps to %s:%d:%d (ok %v), want basic/routes/index.tsx:6:2", i+1, col, file, line, srcCol, ok)
		}
		found = true
	}
	if !found {
		t.Fatalf("script has no line with \"boom \":\n%s", b.Script)
	}
}
