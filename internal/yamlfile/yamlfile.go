// Package yamlfile reads hand-written YAML files (suite files,
// framework.yaml) through go.yaml.in/yaml/v3 nodes so that every problem is
// reported with the file, the 1-based line and the key at fault
// (`suites/tfb.yaml:12: key "gate": 120% is outside 0..100%`). It holds what
// the strict loaders share: Error, Decode, Entries and the scalar readers;
// what a key means stays with each loader.
package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a YAML file, located by file, line and key. Error()
// formats it as `FILE:LINE: key "KEY": MSG`, leaving out `key "KEY": ` when
// Key is empty and `:LINE` when Line is 0.
type Error struct {
	// File is the file's path as the loader was given it.
	File string
	// Line is the 1-based line of the offending key or value (for a missing
	// key, the line of the mapping that lacks it); 0 when unknown.
	Line int
	// Key is the key at fault, as the loader names it: a dotted path such
	// as "endpoints.queries" or "variants.pool.env", or a bare key; "" for
	// the file as a whole (a YAML syntax error, an empty file).
	Key string
	// Msg says what is wrong and, where it helps, what is accepted.
	Msg string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Key == "" {
		return loc + ": " + e.Msg
	}
	return fmt.Sprintf("%s: key %q: %s", loc, e.Key, e.Msg)
}

// File reads the nodes of one YAML file and makes the Errors that name it.
// The zero value is usable; set Path so errors name the file.
type File struct {
	// Path is the file's path as the caller was given it; every Error
	// carries it as Error.File.
	Path string
}

// Errorf returns an *Error at n's line (line 1 when n is nil or has no
// line) for key, with the message fmt.Sprintf(format, args...).
func (f File) Errorf(n *yaml.Node, key, format string, args ...any) error {
	line := 1
	if n != nil && n.Line > 0 {
		line = n.Line
	}
	return &Error{File: f.Path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// Decode returns the root mapping of data, f's contents, which must hold
// exactly one YAML document (aliases resolved); want describes the expected
// root in messages. Errors are *Error with Key "", syntax errors at their line.
func (f File) Decode(data []byte, want string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, f.Errorf(nil, "", "empty file: want %s", want)
		}
		return nil, f.syntaxError(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, f.Errorf(&extra, "", "more than one YAML document")
	case !errors.Is(err, io.EOF):
		return nil, f.syntaxError(err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	root = deref(root)
	if root.Kind != yaml.MappingNode {
		return nil, f.Errorf(root, "", "the file must be %s, found %s", want, Describe(root))
	}
	return root, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlParserProblems are the problems go.yaml.in/yaml/v3 reports from its
// parser rather than its scanner: their line is 0-based ("line 0" omitted),
// the scanner's 1-based.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// syntaxLine turns a yaml.v3 syntax error into a 1-based line (at least 1)
// and the message without the "yaml: line N: " prefix.
func syntaxLine(err error) (int, string) {
	text := err.Error()
	line, msg := 0, strings.TrimPrefix(text, "yaml: ")
	if m := yamlLine.FindStringSubmatch(text); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if slices.Contains(yamlParserProblems, msg) {
		line++
	}
	return max(line, 1), msg
}

func (f File) syntaxError(err error) error {
	line, msg := syntaxLine(err)
	return &Error{File: f.Path, Line: line, Msg: "malformed YAML: " + msg}
}

// Entry is one key/value pair of a mapping, aliases resolved.
type Entry struct {
	// Key is the key's scalar node; Key.Value is the key as written.
	Key *yaml.Node
	// Value is the value's node.
	Value *yaml.Node
	// Path is the dotted path of the key: Join(keyPath, Key.Value).
	Path string
}

// Entries returns the key/value pairs of mapping n in file order; keyPath,
// n's dotted path ("" for the root), names n in errors and prefixes each
// Entry.Path. A non-mapping, a non-scalar key or a duplicate key is an *Error.
func (f File) Entries(n *yaml.Node, keyPath string) ([]Entry, error) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, f.Errorf(n, keyPath, "must be a mapping, found %s", Describe(n))
	}
	seen := map[string]int{}
	out := make([]Entry, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, f.Errorf(k, keyPath, "keys must be plain strings")
		}
		path := Join(keyPath, k.Value)
		if prev, dup := seen[k.Value]; dup {
			return nil, f.Errorf(k, path, "duplicate key (first on line %d)", prev)
		}
		seen[k.Value] = k.Line
		out = append(out, Entry{Key: k, Value: v, Path: path})
	}
	return out, nil
}

// Str reads v as a string. A null (`key:` with no value) or a non-scalar
// is an *Error for key: "must be a string, found KIND".
func (f File) Str(v *yaml.Node, key string) (string, error) {
	v = deref(v)
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", f.Errorf(v, key, "must be a string, found %s", Describe(v))
	}
	return v.Value, nil
}

// Int reads v as a whole number (strconv.Atoi: decimal, optional sign).
// Errors (*Error for key): a null or non-scalar ("must be a whole number,
// found KIND"); any other text (`"x" is not a whole number`).
func (f File) Int(v *yaml.Node, key string) (int, error) {
	v = deref(v)
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return 0, f.Errorf(v, key, "must be a whole number, found %s", Describe(v))
	}
	n, err := strconv.Atoi(v.Value)
	if err != nil {
		return 0, f.Errorf(v, key, "%q is not a whole number", v.Value)
	}
	return n, nil
}

// Bool reads v as true or false (YAML 1.2's two spellings only). Errors
// (*Error for key): a null, non-scalar or other text ("must be true or
// false, found ...").
func (f File) Bool(v *yaml.Node, key string) (bool, error) {
	v = deref(v)
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		switch v.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, f.Errorf(v, key, "must be true or false, found %q", v.Value)
	}
	return false, f.Errorf(v, key, "must be true or false, found %s", Describe(v))
}

// Duration reads v as a Go duration ("15s", "500ms"), zero or negative
// left for the caller to check; errors are *Error for key.
func (f File) Duration(v *yaml.Node, key string) (time.Duration, error) {
	v = deref(v)
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return 0, f.Errorf(v, key, "must be a duration such as 15s or 500ms, found %s", Describe(v))
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil {
		return 0, f.Errorf(v, key, "%q is not a duration (e.g. 15s, 500ms, 1m)", v.Value)
	}
	return d, nil
}

// Join returns the dotted key path of key under prefix: "a.b", or key
// alone when prefix is "".
func Join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// Describe names what node n holds, for "found ..." messages: "a mapping",
// "a list", "nothing (null)", a scalar's quoted value such as `"1"`, or "an
// empty document".
func Describe(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing (null)"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an empty document"
}

// deref follows alias nodes (*name) to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}
