package yamlfile

import (
	"errors"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func TestErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		err  Error
		want string
	}{
		{Error{File: "a.yaml", Line: 12, Key: "gate", Msg: "120% is outside 0..100%"}, `a.yaml:12: key "gate": 120% is outside 0..100%`},
		{Error{File: "a.yaml", Line: 3, Msg: "malformed YAML: x"}, `a.yaml:3: malformed YAML: x`},
		{Error{File: "a.yaml", Key: "k", Msg: "m"}, `a.yaml: key "k": m`},
		{Error{File: "a.yaml", Msg: "m"}, `a.yaml: m`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestDecodeErrors checks the exact line, key and message of each file-level
// problem.
func TestDecodeErrors(t *testing.T) {
	const want = "a mapping of keys (a, b)"
	for _, tc := range []struct {
		name, data string
		line       int
		msg        string
	}{
		// Parser problem: yaml.v3 says "line 2" (0-based) for the flow list on line 3.
		{"parser", "a: 1\nb: 2\nc: [1, 2\nd: 4\n", 3, "malformed YAML: did not find expected ',' or ']'"},
		// Scanner problem: yaml.v3's line is already 1-based.
		{"scanner", "a: 1\nb: /x: y\n", 2, "malformed YAML: mapping values are not allowed in this context"},
		{"parser-key", "a:\n    b: 1\n  c: 2\n", 3, "malformed YAML: did not find expected key"},
		{"second-document-syntax", "a: 1\n---\nb: [1\n", 3, "malformed YAML: did not find expected ',' or ']'"},
		{"empty", "", 1, "empty file: want " + want},
		{"comments-only", "# nothing here\n", 1, "empty file: want " + want},
		{"two-documents", "a: 1\n---\nb: 2\n", 2, "more than one YAML document"},
		{"list", "\n- a: 1\n", 2, `the file must be ` + want + `, found a list`},
		{"scalar", "hello\n", 1, `the file must be ` + want + `, found "hello"`},
		// yaml.v3 places the implicit null after the document marker.
		{"null", "---\n", 2, `the file must be ` + want + `, found nothing (null)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := File{Path: "f.yaml"}.Decode([]byte(tc.data), want)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode = %v, %v; want an *Error", n, err)
			}
			if *e != (Error{File: "f.yaml", Line: tc.line, Msg: tc.msg}) {
				t.Errorf("got %+v\nwant line %d msg %q", *e, tc.line, tc.msg)
			}
		})
	}
}

func TestDecodeAndEntries(t *testing.T) {
	f := File{Path: "f.yaml"}
	root, err := f.Decode([]byte("base: &b {x: 1}\nalias: *b\nname: n\n"), "a mapping")
	if err != nil {
		t.Fatal(err)
	}
	kv, err := f.Entries(root, "")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range kv {
		paths = append(paths, e.Path)
	}
	if len(kv) != 3 || paths[0] != "base" || paths[1] != "alias" || paths[2] != "name" {
		t.Fatalf("entries %v, want base alias name", paths)
	}
	// The alias resolves to the anchored mapping; nested paths are dotted.
	sub, err := f.Entries(kv[1].Value, kv[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub) != 1 || sub[0].Path != "alias.x" || sub[0].Value.Value != "1" || sub[0].Key.Line != 1 {
		t.Errorf("alias entries %+v, want one alias.x = 1 from line 1", sub)
	}
}

func TestEntriesErrors(t *testing.T) {
	f := File{Path: "f.yaml"}
	for _, tc := range []struct {
		name, data, keyPath string
		want                Error
	}{
		{"duplicate", "a: 1\nb: 2\na: 3\n", "env", Error{File: "f.yaml", Line: 3, Key: "env.a", Msg: "duplicate key (first on line 1)"}},
		{"duplicate-root", "a: 1\n\na: 3\n", "", Error{File: "f.yaml", Line: 3, Key: "a", Msg: "duplicate key (first on line 1)"}},
		{"list-key", "? [a]\n: 1\n", "env", Error{File: "f.yaml", Line: 1, Key: "env", Msg: "keys must be plain strings"}},
		{"not-mapping", "[1, 2]\n", "variants.x", Error{File: "f.yaml", Line: 1, Key: "variants.x", Msg: "must be a mapping, found a list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.data), &doc); err != nil {
				t.Fatal(err)
			}
			_, err := f.Entries(doc.Content[0], tc.keyPath)
			var e *Error
			if !errors.As(err, &e) || *e != tc.want {
				t.Errorf("Entries error %v, want %+v", err, tc.want)
			}
		})
	}
}

func TestScalars(t *testing.T) {
	f := File{Path: "f.yaml"}
	var doc yaml.Node
	src := "s: hello\nn: -42\nd: 1m30s\nnull:\nlist: [1]\nword: five\nnum: 7\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	kv, err := f.Entries(doc.Content[0], "")
	if err != nil {
		t.Fatal(err)
	}
	v := map[string]*yaml.Node{}
	for _, e := range kv {
		v[e.Path] = e.Value
	}

	if s, err := f.Str(v["s"], "s"); s != "hello" || err != nil {
		t.Errorf("Str(s) = %q, %v", s, err)
	}
	if s, err := f.Str(v["num"], "num"); s != "7" || err != nil {
		t.Errorf("Str(num) = %q, %v; a number reads as its text", s, err)
	}
	if n, err := f.Int(v["n"], "n"); n != -42 || err != nil {
		t.Errorf("Int(n) = %d, %v", n, err)
	}
	if d, err := f.Duration(v["d"], "d"); d != 90*time.Second || err != nil {
		t.Errorf("Duration(d) = %v, %v", d, err)
	}

	for _, tc := range []struct {
		name string
		read func() error
		want string
	}{
		{"str-null", func() error { _, err := f.Str(v["null"], "null"); return err }, `f.yaml:4: key "null": must be a string, found nothing (null)`},
		{"str-list", func() error { _, err := f.Str(v["list"], "list"); return err }, `f.yaml:5: key "list": must be a string, found a list`},
		{"int-word", func() error { _, err := f.Int(v["word"], "word"); return err }, `f.yaml:6: key "word": "five" is not a whole number`},
		{"int-null", func() error { _, err := f.Int(v["null"], "null"); return err }, `f.yaml:4: key "null": must be a whole number, found nothing (null)`},
		{"duration-word", func() error { _, err := f.Duration(v["word"], "word"); return err }, `f.yaml:6: key "word": "five" is not a duration (e.g. 15s, 500ms, 1m)`},
		{"duration-unitless", func() error { _, err := f.Duration(v["num"], "num"); return err }, `f.yaml:7: key "num": "7" is not a duration (e.g. 15s, 500ms, 1m)`},
		{"duration-list", func() error { _, err := f.Duration(v["list"], "list"); return err }, `f.yaml:5: key "list": must be a duration such as 15s or 500ms, found a list`},
	} {
		err := tc.read()
		var e *Error
		if !errors.As(err, &e) || err.Error() != tc.want {
			t.Errorf("%s: error %v, want *Error %q", tc.name, err, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	if got := Join("", "a"); got != "a" {
		t.Errorf(`Join("", "a") = %q`, got)
	}
	if got := Join("variants.pool", "env"); got != "variants.pool.env" {
		t.Errorf(`Join("variants.pool", "env") = %q`, got)
	}
}

func TestErrorfLine(t *testing.T) {
	f := File{Path: "f.yaml"}
	for _, tc := range []struct {
		n    *yaml.Node
		want string
	}{
		{nil, "f.yaml:1: m 2"},
		{&yaml.Node{}, "f.yaml:1: m 2"},
		{&yaml.Node{Line: 9}, "f.yaml:9: m 2"},
	} {
		if got := f.Errorf(tc.n, "", "m %d", 2).Error(); got != tc.want {
			t.Errorf("Errorf(%+v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
