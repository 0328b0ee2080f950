package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a suite file, located by file, line and key.
// Its message reads "suites/tfb.yaml:12: key \"gate\": 120% is outside 0..100%".
type Error struct {
	File string // path of the suite file
	Line int    // 1-based line of the offending node, 0 when unknown
	Key  string // the YAML key at fault, "" for the document as a whole
	Msg  string
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

// Built-in defaults used where a suite's defaults block is silent. They are
// TFB's method values where TFB has one (8 s timeout, 100% gate) and values
// suited to a laptop run elsewhere.
var builtin = Settings{
	Duration:     5 * time.Second,
	Warmup:       2 * time.Second,
	Timeout:      8 * time.Second,
	Concurrency:  []int{16, 64, 256},
	Pipeline:     1,
	Gate:         1,
	MinResponses: 100,
	Engine:       "raw",
}

// DefaultPath is the TFB path of each test type; a test's `path` key or a
// framework's endpoints override it.
var DefaultPath = map[Type]string{
	JSON:      "/json",
	Plaintext: "/plaintext",
	DB:        "/db",
	Queries:   "/queries?queries={n}",
	Fortunes:  "/fortunes",
	Updates:   "/updates?queries={n}",
}

// DefaultQueries are TFB's N values for queries and updates (1, 5, 10, 15, 20).
var DefaultQueries = []int{1, 5, 10, 15, 20}

// Engines are the load generator engines a suite may name.
var Engines = []string{"raw"}

// Load reads and validates the suite file at path. Every problem is
// reported as an *Error naming the file, line and key; the first one found
// is returned.
func Load(path string) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse validates suite YAML held in memory; file names it in errors.
func Parse(file string, data []byte) (*Suite, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Line: yamlErrLine(err), Msg: "malformed YAML: " + err.Error()}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{File: file, Msg: "empty suite file"}
	}
	p := parser{file: file}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errf(root, "", "a suite is a mapping with name, defaults and tests")
	}
	s := &Suite{File: file, Rounds: 1, Defaults: builtin}
	sum := sha256.Sum256(data)
	s.Hash = hex.EncodeToString(sum[:])
	var testsNode *yaml.Node
	err := p.each(root, func(key string, k, v *yaml.Node) error {
		switch key {
		case "name":
			return p.str(v, key, &s.Name)
		case "defaults":
			return p.each(v, func(key string, k, v *yaml.Node) error {
				if key == "rounds" {
					if err := p.integer(v, key, &s.Rounds); err != nil {
						return err
					}
					if s.Rounds < 1 {
						return p.errf(v, key, "rounds must be at least 1")
					}
					return nil
				}
				return p.setting(key, k, v, &s.Defaults)
			})
		case "tests":
			testsNode = v
			return nil
		}
		return p.errf(k, key, "unknown key (want name, defaults, tests)")
	})
	if err != nil {
		return nil, err
	}
	if s.Name == "" {
		return nil, p.errf(root, "name", "missing")
	}
	if testsNode == nil || testsNode.Kind != yaml.SequenceNode || len(testsNode.Content) == 0 {
		n := root
		if testsNode != nil {
			n = testsNode
		}
		return nil, p.errf(n, "tests", "a non-empty list of tests is required")
	}
	seen := map[string]int{}
	for _, tn := range testsNode.Content {
		t, err := p.test(tn, s.Defaults)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[t.Name]; dup {
			return nil, p.errf(tn, "name", fmt.Sprintf("test %q already defined on line %d", t.Name, line))
		}
		seen[t.Name] = t.Line
		s.Tests = append(s.Tests, t)
	}
	return s, nil
}

// Select returns the suite's tests whose names are in names, in suite
// order; nil names selects all. An unknown name is an error listing the
// suite's test names.
func (s *Suite) Select(names []string) ([]Test, error) {
	if len(names) == 0 {
		return s.Tests, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []Test
	for _, t := range s.Tests {
		if want[t.Name] {
			out = append(out, t)
			delete(want, t.Name)
		}
	}
	for n := range want {
		var all []string
		for _, t := range s.Tests {
			all = append(all, t.Name)
		}
		return nil, fmt.Errorf("%s: no test named %q (have %s)", s.File, n, strings.Join(all, ", "))
	}
	return out, nil
}

type parser struct{ file string }

func (p parser) errf(n *yaml.Node, key, msg string) error {
	return &Error{File: p.file, Line: n.Line, Key: key, Msg: msg}
}

// each walks a mapping node, calling fn with each key and value.
func (p parser) each(n *yaml.Node, fn func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "", "expected a mapping")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := fn(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p parser) test(n *yaml.Node, defaults Settings) (Test, error) {
	t := Test{Line: n.Line, Settings: defaults}
	t.Concurrency = append([]int(nil), defaults.Concurrency...)
	var queriesNode *yaml.Node
	err := p.each(n, func(key string, k, v *yaml.Node) error {
		switch key {
		case "name":
			return p.str(v, key, &t.Name)
		case "type":
			var s string
			if err := p.str(v, key, &s); err != nil {
				return err
			}
			t.Type = Type(s)
			if !t.Type.Valid() {
				return p.errf(v, key, fmt.Sprintf("unknown test type %q (want one of json, plaintext, db, queries, fortunes, updates)", s))
			}
			return nil
		case "path":
			if err := p.str(v, key, &t.Path); err != nil {
				return err
			}
			if !strings.HasPrefix(t.Path, "/") {
				return p.errf(v, key, "a path starts with /")
			}
			return nil
		case "queries":
			queriesNode = v
			return p.levels(v, key, &t.Queries)
		case "rounds":
			return p.errf(k, key, "rounds is suite-wide: set it under defaults")
		}
		return p.setting(key, k, v, &t.Settings)
	})
	if err != nil {
		return t, err
	}
	if t.Name == "" {
		return t, p.errf(n, "name", "every test needs a name")
	}
	if t.Type == "" {
		return t, p.errf(n, "type", fmt.Sprintf("test %q has no type", t.Name))
	}
	if t.Path == "" {
		t.Path = DefaultPath[t.Type]
	}
	if t.Type.TakesN() {
		if t.Queries == nil {
			t.Queries = append([]int(nil), DefaultQueries...)
		}
		if !strings.Contains(t.Path, "{n}") {
			return t, p.errf(n, "path", fmt.Sprintf("a %s path needs the {n} placeholder", t.Type))
		}
		for _, q := range t.Queries {
			if q > 500 {
				return t, p.errf(queriesNode, "queries", fmt.Sprintf("%d is above 500, the most TFB allows", q))
			}
		}
	} else if queriesNode != nil {
		return t, p.errf(queriesNode, "queries", fmt.Sprintf("only queries and updates tests take queries, not %s", t.Type))
	}
	return t, nil
}

// setting parses one key of the Settings block (defaults or a test).
func (p parser) setting(key string, k, v *yaml.Node, s *Settings) error {
	switch key {
	case "duration":
		return p.duration(v, key, &s.Duration, false)
	case "warmup":
		return p.duration(v, key, &s.Warmup, true)
	case "timeout":
		return p.duration(v, key, &s.Timeout, false)
	case "concurrency":
		return p.levels(v, key, &s.Concurrency)
	case "pipeline":
		if err := p.integer(v, key, &s.Pipeline); err != nil {
			return err
		}
		if s.Pipeline < 1 {
			return p.errf(v, key, "pipeline depth must be at least 1")
		}
		return nil
	case "min_responses":
		if err := p.integer(v, key, &s.MinResponses); err != nil {
			return err
		}
		if s.MinResponses < 1 {
			return p.errf(v, key, "min_responses must be at least 1")
		}
		return nil
	case "gate":
		return p.gate(v, key, &s.Gate)
	case "engine":
		if err := p.str(v, key, &s.Engine); err != nil {
			return err
		}
		for _, e := range Engines {
			if e == s.Engine {
				return nil
			}
		}
		return p.errf(v, key, fmt.Sprintf("unknown engine %q (want one of %s)", s.Engine, strings.Join(Engines, ", ")))
	}
	return p.errf(k, key, "unknown key (want duration, warmup, timeout, concurrency, pipeline, gate, min_responses, engine, and in a test also name, type, path, queries)")
}

func (p parser) str(v *yaml.Node, key string, out *string) error {
	if v.Kind != yaml.ScalarNode {
		return p.errf(v, key, "expected a string")
	}
	*out = v.Value
	return nil
}

func (p parser) integer(v *yaml.Node, key string, out *int) error {
	if v.Kind != yaml.ScalarNode {
		return p.errf(v, key, "expected a whole number")
	}
	n, err := strconv.Atoi(v.Value)
	if err != nil {
		return p.errf(v, key, fmt.Sprintf("%q is not a whole number", v.Value))
	}
	*out = n
	return nil
}

func (p parser) duration(v *yaml.Node, key string, out *time.Duration, zeroOK bool) error {
	if v.Kind != yaml.ScalarNode {
		return p.errf(v, key, "expected a duration such as 15s or 500ms")
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil {
		return p.errf(v, key, fmt.Sprintf("%q is not a duration (write 15s, 500ms, 1m)", v.Value))
	}
	if d < 0 || (d == 0 && !zeroOK) {
		return p.errf(v, key, fmt.Sprintf("%s must be positive", v.Value))
	}
	*out = d
	return nil
}

// levels parses a non-empty list of positive integers (concurrency levels
// or query counts N).
func (p parser) levels(v *yaml.Node, key string, out *[]int) error {
	if v.Kind != yaml.SequenceNode {
		return p.errf(v, key, "expected a list such as [16, 64, 256]")
	}
	if len(v.Content) == 0 {
		return p.errf(v, key, "the list is empty: give at least one level")
	}
	var ls []int
	for _, e := range v.Content {
		var n int
		if err := p.integer(e, key, &n); err != nil {
			return err
		}
		if n < 1 {
			return p.errf(e, key, fmt.Sprintf("%d: levels must be positive", n))
		}
		ls = append(ls, n)
	}
	*out = ls
	return nil
}

// gate parses a percentage such as "100%" or "99.5%" into a share 0..1.
func (p parser) gate(v *yaml.Node, key string, out *float64) error {
	s := strings.TrimSpace(v.Value)
	if v.Kind != yaml.ScalarNode || !strings.HasSuffix(s, "%") {
		return p.errf(v, key, fmt.Sprintf("%q: write the gate as a percentage such as 100%%", v.Value))
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil {
		return p.errf(v, key, fmt.Sprintf("%q is not a percentage", v.Value))
	}
	if f < 0 || f > 100 {
		return p.errf(v, key, fmt.Sprintf("%s is outside 0..100%%", s))
	}
	*out = f / 100
	return nil
}

// yamlErrLine extracts "line N" from a yaml.v3 syntax error, 0 if absent.
func yamlErrLine(err error) int {
	msg := err.Error()
	i := strings.Index(msg, "line ")
	if i < 0 {
		return 0
	}
	j := i + 5
	for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(msg[i+5 : j])
	return n
}
