package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/yamlfile"
)

// Error is a problem in a suite file, located by file, line and key (the
// shared yamlfile.Error): Key is the bare key at fault, "" for the whole
// file, or a duplicate key's dotted path ("defaults.duration").
type Error = yamlfile.Error

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
var DefaultPath = map[model.TestType]string{
	model.JSON:      "/json",
	model.Plaintext: "/plaintext",
	model.DB:        "/db",
	model.Queries:   "/queries?queries={n}",
	model.Fortunes:  "/fortunes",
	model.Updates:   "/updates?queries={n}",
	model.Page:      "/ssr?rows={n}",
	model.Stream:    "/stream?rows={n}&parts={k}",
	model.Coldstart: "/ssr?rows={n}", // its load: the page at the headline size
}

// DefaultParts and MaxParts bound a stream test's `parts` (K): the
// contract's default and largest K (docs/ssr.md, "The streamed page").
const (
	DefaultParts = 4
	MaxParts     = 16
)

// DefaultRows are a page test's sizes when its `rows` key is absent: World
// rows per page, about 1 KB to over 1 MB depending on the framework.
var DefaultRows = []int{10, 100, 1000, 10000}

// MaxRows is the most World rows a page may ask for (the World table's
// size; adapters clamp N to 1..MaxRows).
const MaxRows = 10000

// DefaultQueries are TFB's N values for queries and updates (1, 5, 10, 15, 20).
var DefaultQueries = []int{1, 5, 10, 15, 20}

// Engines are the load generator engines a suite may name.
var Engines = []string{"raw", "hey"}

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
// Errors are *Error: a YAML syntax error (at its line), an empty file, more
// than one YAML document, a duplicate key, and every suite rule.
func Parse(file string, data []byte) (*Suite, error) {
	p := parser{yamlfile.File{Path: file}}
	root, err := p.Decode(data, "a mapping of keys (name, defaults, tests)")
	if err != nil {
		return nil, err
	}
	top, err := p.Entries(root, "")
	if err != nil {
		return nil, err
	}
	s := &Suite{File: file, Rounds: 1, Defaults: builtin}
	sum := sha256.Sum256(data)
	s.Hash = hex.EncodeToString(sum[:])
	var testsNode *yaml.Node
	for _, e := range top {
		key, v := e.Key.Value, e.Value
		switch key {
		case "name":
			s.Name, err = p.Str(v, key)
		case "defaults":
			err = p.defaults(v, s)
		case "tests":
			testsNode = v
		default:
			err = p.Errorf(e.Key, key, "unknown key (want name, defaults, tests)")
		}
		if err != nil {
			return nil, err
		}
	}
	if s.Name == "" {
		return nil, p.Errorf(root, "name", "missing")
	}
	if testsNode == nil || testsNode.Kind != yaml.SequenceNode || len(testsNode.Content) == 0 {
		n := root
		if testsNode != nil {
			n = testsNode
		}
		return nil, p.Errorf(n, "tests", "a non-empty list of tests is required")
	}
	seen := map[string]int{}
	for _, tn := range testsNode.Content {
		t, err := p.test(tn, s.Defaults)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[t.Name]; dup {
			return nil, p.Errorf(tn, "name", "test %q already defined on line %d", t.Name, line)
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

// parser reads one suite file; its yamlfile.File names the file in errors.
type parser struct{ yamlfile.File }

// defaults reads the defaults block: rounds and the Settings keys.
func (p parser) defaults(n *yaml.Node, s *Suite) error {
	kv, err := p.Entries(n, "defaults")
	if err != nil {
		return err
	}
	for _, e := range kv {
		key, v := e.Key.Value, e.Value
		if key != "rounds" {
			err = p.setting(key, e.Key, v, &s.Defaults)
		} else if s.Rounds, err = p.Int(v, key); err == nil && s.Rounds < 1 {
			err = p.Errorf(v, key, "rounds must be at least 1")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// test reads one entry of the tests list, starting from the defaults.
func (p parser) test(n *yaml.Node, defaults Settings) (Test, error) {
	t := Test{Line: n.Line, Settings: defaults}
	t.Concurrency = append([]int(nil), defaults.Concurrency...)
	kv, err := p.Entries(n, "tests")
	if err != nil {
		return t, err
	}
	var queriesNode, rowsNode, cacheNode, partsNode, pathNode, concNode *yaml.Node
	coldNodes := map[string]*yaml.Node{}
	for _, e := range kv {
		key, v := e.Key.Value, e.Value
		switch key {
		case "name":
			t.Name, err = p.Str(v, key)
		case "type":
			var s string
			if s, err = p.Str(v, key); err == nil {
				if t.Type = model.TestType(s); !t.Type.Valid() {
					err = p.Errorf(v, key, "unknown test type %q (want one of json, plaintext, db, queries, fortunes, updates, page, stream, coldstart)", s)
				}
			}
		case "path":
			pathNode = v
			if t.Path, err = p.Str(v, key); err == nil && !strings.HasPrefix(t.Path, "/") {
				err = p.Errorf(v, key, "a path starts with /")
			}
		case "queries":
			queriesNode = v
			t.Queries, err = p.levels(v, key)
		case "rows":
			rowsNode = v
			t.Queries, err = p.levels(v, key)
		case "cache":
			cacheNode = v
			if t.Cache, err = p.Str(v, key); err == nil && t.Cache != CacheHit && t.Cache != "none" {
				err = p.Errorf(v, key, "%q: want hit (serve the framework's cached page route) or none (render every request)", t.Cache)
			}
			if t.Cache == "none" {
				t.Cache = ""
			}
		case "parts":
			partsNode = v
			if t.Parts, err = p.Int(v, key); err == nil && (t.Parts < 1 || t.Parts > MaxParts) {
				err = p.Errorf(v, key, "%d is outside 1..%d, the parts a stream page may ask for", t.Parts, MaxParts)
			}
		case "rounds":
			err = p.Errorf(e.Key, key, "rounds is suite-wide: set it under defaults")
		default:
			if key == "concurrency" {
				concNode = v
			}
			var cold bool
			if cold, err = p.coldKey(key, v, &t, coldNodes); !cold {
				err = p.setting(key, e.Key, v, &t.Settings)
			}
		}
		if err != nil {
			return t, err
		}
	}
	if t.Name == "" {
		return t, p.Errorf(n, "name", "every test needs a name")
	}
	if t.Type == "" {
		return t, p.Errorf(n, "type", "test %q has no type", t.Name)
	}
	if err := p.coldstart(n, &t, coldNodes, concNode, rowsNode, queriesNode, pathNode, cacheNode); err != nil || t.Type == model.Coldstart {
		return t, err
	}
	if t.Path == "" {
		t.Path = DefaultPath[t.Type]
	}
	if t.Engine == "hey" && (t.Pipeline > 1 || t.Rate > 0) {
		return t, p.Errorf(n, "engine", "test %q: engine hey neither pipelines nor runs at a constant rate (pipeline %d, rate %g)", t.Name, t.Pipeline, t.Rate)
	}
	if t.Responses > 0 && t.MinDuration > t.Duration {
		return t, p.Errorf(n, "min_duration", "test %q: min_duration %s is longer than duration %s, the longest window", t.Name, t.MinDuration, t.Duration)
	}
	if t.Engine == "hey" && t.SampleWarmup > 0 {
		return t, p.Errorf(n, "sample_warmup", "test %q: engine hey cannot open a window on running load (sample_warmup %s)", t.Name, t.SampleWarmup)
	}
	if t.Engine == "hey" && (t.Responses > 0 || t.WarmupResponses > 0) {
		return t, p.Errorf(n, "responses", "test %q: engine hey cannot end a window on a response count (responses %d, warmup_responses %d)", t.Name, t.Responses, t.WarmupResponses)
	}
	if t.RateConnections == 0 {
		t.RateConnections = slices.Min(t.Concurrency)
	}
	if cacheNode != nil && t.Type != model.Page {
		return t, p.Errorf(cacheNode, "cache", "only page tests take cache, not %s", t.Type)
	}
	if t.Engine == "hey" && t.Probe > 0 {
		return t, p.Errorf(n, "engine", "test %q: engine hey runs no interference probe (probe %s)", t.Name, t.Probe)
	}
	if err := p.stream(n, partsNode, &t); err != nil {
		return t, err
	}
	if t.Type.IsPage() {
		if queriesNode != nil {
			return t, p.Errorf(queriesNode, "queries", "a %s test takes rows (World rows per page), not queries", t.Type)
		}
		if t.Queries == nil {
			t.Queries = append([]int(nil), DefaultRows...)
		}
		if !strings.Contains(t.Path, "{n}") {
			return t, p.Errorf(n, "path", "a %s path needs the {n} placeholder for the rows", t.Type)
		}
		for _, r := range t.Queries {
			if r > MaxRows {
				return t, p.Errorf(rowsNode, "rows", "%d is above %d, the rows of the World table", r, MaxRows)
			}
		}
	} else if rowsNode != nil {
		return t, p.Errorf(rowsNode, "rows", "only page and stream tests take rows, not %s", t.Type)
	} else if t.Type.TakesN() {
		if t.Queries == nil {
			t.Queries = append([]int(nil), DefaultQueries...)
		}
		if !strings.Contains(t.Path, "{n}") {
			return t, p.Errorf(n, "path", "a %s path needs the {n} placeholder", t.Type)
		}
		for _, q := range t.Queries {
			if q > 500 {
				return t, p.Errorf(queriesNode, "queries", "%d is above 500, the most TFB allows", q)
			}
		}
	} else if queriesNode != nil {
		return t, p.Errorf(queriesNode, "queries", "only queries and updates tests take queries, not %s", t.Type)
	}
	return t, nil
}

// setting parses one key of the Settings block (defaults or a test).
func (p parser) setting(key string, k, v *yaml.Node, s *Settings) (err error) {
	switch key {
	case "duration":
		s.Duration, err = p.duration(v, key, false)
	case "warmup":
		s.Warmup, err = p.duration(v, key, true)
	case "timeout":
		s.Timeout, err = p.duration(v, key, false)
	case "concurrency":
		s.Concurrency, err = p.levels(v, key)
	case "pipeline":
		if s.Pipeline, err = p.Int(v, key); err == nil && s.Pipeline < 1 {
			err = p.Errorf(v, key, "pipeline depth must be at least 1")
		}
	case "min_responses":
		if s.MinResponses, err = p.Int(v, key); err == nil && s.MinResponses < 1 {
			err = p.Errorf(v, key, "min_responses must be at least 1")
		}
	case "gate":
		s.Gate, err = p.percent(v, key)
	case "engine":
		if s.Engine, err = p.Str(v, key); err == nil && !slices.Contains(Engines, s.Engine) {
			err = p.Errorf(v, key, "unknown engine %q (want one of %s)", s.Engine, strings.Join(Engines, ", "))
		}
	case "responses":
		s.Responses, err = p.count(v, key, "0 turns it off")
	case "sample_warmup":
		s.SampleWarmup, err = p.duration(v, key, true)
	case "warmup_responses":
		s.WarmupResponses, err = p.count(v, key, "0 turns it off")
	case "min_duration":
		s.MinDuration, err = p.duration(v, key, true)
	case "keep_within":
		if s.KeepWithin, err = p.percent(v, key); err == nil && s.KeepWithin >= 1 {
			err = p.Errorf(v, key, "%s keeps every level: write a share below 100%% (0%% turns it off)", strings.TrimSpace(v.Value))
		}
	case "rate_rounds":
		s.RateRounds, err = p.count(v, key, "0: every round")
	case "rate":
		s.Rate, err = p.rate(v, key)
	case "rate_connections":
		if s.RateConnections, err = p.Int(v, key); err == nil && s.RateConnections < 1 {
			err = p.Errorf(v, key, "rate_connections must be at least 1")
		}
	case "probe":
		s.Probe, err = p.duration(v, key, true)
		if err == nil && s.Probe > 0 && s.Probe < time.Millisecond {
			err = p.Errorf(v, key, "%s is below 1ms: the probe is one request per interval on one connection", v.Value)
		}
	default:
		err = p.Errorf(k, key, "unknown key (want duration, responses, min_duration, warmup, warmup_responses, sample_warmup, timeout, concurrency, keep_within, pipeline, gate, min_responses, engine, rate, rate_connections, rate_rounds, probe; under defaults also rounds; in a test also name, type, path, queries, rows, parts, cache, and for coldstart starts, routes, warmup_limit)")
	}
	return err
}

// rate reads a constant rate in requests/s: a positive number, or 0 for
// none.
func (p parser) rate(v *yaml.Node, key string) (float64, error) {
	if v.Kind != yaml.ScalarNode {
		return 0, p.Errorf(v, key, "must be a number of requests/s, found %s", yamlfile.Describe(v))
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	if err != nil || !(f >= 0) || math.IsInf(f, 0) { // !(f >= 0) also refuses NaN
		return 0, p.Errorf(v, key, "%q is not a rate in requests/s (write 1000; 0 turns it off)", v.Value)
	}
	return f, nil
}

// count reads a non-negative integer; zero says what 0 means in the error.
func (p parser) count(v *yaml.Node, key, zero string) (int, error) {
	n, err := p.Int(v, key)
	if err == nil && n < 0 {
		err = p.Errorf(v, key, "%s must not be negative (%s)", key, zero)
	}
	return n, err
}

// duration reads a positive duration, or with zeroOK a non-negative one.
func (p parser) duration(v *yaml.Node, key string, zeroOK bool) (time.Duration, error) {
	d, err := p.Duration(v, key)
	switch {
	case err != nil:
	case d < 0 && zeroOK:
		err = p.Errorf(v, key, "%s must not be negative (0s turns it off)", v.Value)
	case d <= 0 && !zeroOK:
		err = p.Errorf(v, key, "%s must be positive", v.Value)
	}
	return d, err
}

// levels parses a non-empty list of positive integers (concurrency levels
// or query counts N).
func (p parser) levels(v *yaml.Node, key string) ([]int, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.Errorf(v, key, "expected a list such as [16, 64, 256]")
	}
	if len(v.Content) == 0 {
		return nil, p.Errorf(v, key, "the list is empty: give at least one level")
	}
	ls := make([]int, 0, len(v.Content))
	for _, e := range v.Content {
		n, err := p.Int(e, key)
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, p.Errorf(e, key, "%d: levels must be positive", n)
		}
		ls = append(ls, n)
	}
	return ls, nil
}

// percent parses a percentage such as "100%" or "99.5%" into a share 0..1.
func (p parser) percent(v *yaml.Node, key string) (float64, error) {
	s := strings.TrimSpace(v.Value)
	if v.Kind != yaml.ScalarNode || !strings.HasSuffix(s, "%") {
		return 0, p.Errorf(v, key, "%q: write %s as a percentage such as 100%%", v.Value, key)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil {
		return 0, p.Errorf(v, key, "%q is not a percentage", v.Value)
	}
	if !(f >= 0 && f <= 100) { // NaN too
		return 0, p.Errorf(v, key, "%s is outside 0..100%%", s)
	}
	return f / 100, nil
}
