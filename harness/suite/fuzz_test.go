package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// maxFuzzInput is the largest input FuzzParseSuite parses; suite files are
// a few KiB, and larger inputs only slow the fuzzer down.
const maxFuzzInput = 64 << 10

// FuzzParseSuite parses arbitrary bytes as a suite file named "fuzz.yaml".
// Seeds (testdata/fuzz/FuzzParseSuite, `go test fuzz v1` files) are the
// shipped suites/*.yaml (suites-*), the bad suites of testdata/*.yaml
// (testdata-*) and a few hand-written edge cases (hand-*: aliases, NaN
// gate and rate, hey with pipelining, N over 500). For every input Parse
// must return exactly one of a suite and an error; an error is an *Error
// naming fuzz.yaml at a line ≥ 1 with a message, and a suite obeys every
// rule Settings, Test and Suite document (positive levels and durations,
// gate 0..1, pipeline ≥ 1, a known engine, a finite rate ≥ 0; TFB rules:
// queries 1..500 and {n} in queries and updates paths; page and stream rows
// 1..MaxRows; a stream test's parts 1..MaxParts and {k}, no parts elsewhere). Parsing the same
// bytes twice gives the same result (NaN included, which DeepEqual
// refuses). Run it with
//
//	go test -run '^$' -fuzz FuzzParseSuite -fuzztime 30s ./harness/suite/
func FuzzParseSuite(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			t.Skip()
		}
		s, err := Parse("fuzz.yaml", data)
		if (s == nil) == (err == nil) {
			t.Fatalf("suite %+v and error %v: want exactly one", s, err)
		}
		again, err2 := Parse("fuzz.yaml", data)
		if !reflect.DeepEqual(s, again) || errText(err) != errText(err2) {
			t.Fatalf("parsed twice, got different results:\n%+v, %v\n%+v, %v", s, err, again, err2)
		}
		if err != nil {
			checkError(t, err)
			return
		}
		checkSuite(t, s, data)
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkError checks that err locates a problem in fuzz.yaml.
func checkError(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %q is not a *suite.Error", err, err)
	}
	if e.File != "fuzz.yaml" || e.Line < 1 || e.Msg == "" {
		t.Fatalf("error %+v: want file fuzz.yaml, line ≥ 1 and a message", *e)
	}
	if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
		t.Fatalf("error %q does not start with fuzz.yaml:", err)
	}
}

// checkSuite checks every rule a loaded suite promises.
func checkSuite(t *testing.T, s *Suite, data []byte) {
	t.Helper()
	sum := sha256.Sum256(data)
	if s.File != "fuzz.yaml" || s.Hash != hex.EncodeToString(sum[:]) {
		t.Errorf("file %q hash %q, want fuzz.yaml and the input's sha256", s.File, s.Hash)
	}
	if s.Name == "" || s.Rounds < 1 || len(s.Tests) == 0 {
		t.Errorf("name %q, %d rounds, %d tests: want a name, rounds ≥ 1, a test", s.Name, s.Rounds, len(s.Tests))
	}
	checkSettings(t, "defaults", s.Defaults, true)
	names := map[string]bool{}
	for _, tt := range s.Tests {
		where := "test " + tt.Name
		if tt.Name == "" || names[tt.Name] {
			t.Errorf("test name %q is empty or repeated", tt.Name)
		}
		names[tt.Name] = true
		if !slices.Contains(model.Types, tt.Type) || tt.Line < 1 || !strings.HasPrefix(tt.Path, "/") {
			t.Errorf("%s: type %q, line %d, path %q", where, tt.Type, tt.Line, tt.Path)
		}
		checkSettings(t, where, tt.Settings, false)
		if tt.Engine == "hey" && (tt.Pipeline != 1 || tt.Rate != 0) {
			t.Errorf("%s: engine hey with pipeline %d, rate %g", where, tt.Pipeline, tt.Rate)
		}
		if tt.Type == model.Stream && (tt.Parts < 1 || tt.Parts > MaxParts || !strings.Contains(tt.Path, "{k}")) || tt.Type != model.Stream && tt.Parts != 0 {
			t.Errorf("%s: %s test with parts %d, path %q: a stream test's K in 1..%d and {k}, none elsewhere", where, tt.Type, tt.Parts, tt.Path, MaxParts)
		}
		if !tt.Type.TakesN() {
			if len(tt.Queries) != 0 {
				t.Errorf("%s: %s test with queries %v", where, tt.Type, tt.Queries)
			}
			continue
		}
		if !strings.Contains(tt.Path, "{n}") || len(tt.Queries) == 0 {
			t.Errorf("%s: path %q, queries %v: want {n} and at least one N", where, tt.Path, tt.Queries)
		}
		for _, n := range tt.Queries {
			if tt.Type.IsPage() && (n < 1 || n > MaxRows) {
				t.Errorf("%s: N %d outside the page's 1..%d rows", where, n, MaxRows)
			} else if !tt.Type.IsPage() && (n < 1 || n > 500) {
				t.Errorf("%s: N %d outside TFB's 1..500", where, n)
			}
		}
	}
}

// checkSettings checks one Settings block; the defaults may leave
// RateConnections 0 (a test then takes its smallest level).
func checkSettings(t *testing.T, where string, st Settings, defaults bool) {
	t.Helper()
	if st.Duration <= 0 || st.Warmup < 0 || st.Timeout <= 0 {
		t.Errorf("%s: duration %v, warmup %v, timeout %v", where, st.Duration, st.Warmup, st.Timeout)
	}
	if len(st.Concurrency) == 0 || slices.Min(st.Concurrency) < 1 {
		t.Errorf("%s: concurrency %v: want positive levels", where, st.Concurrency)
	}
	if st.Pipeline < 1 || st.MinResponses < 1 || !slices.Contains(Engines, st.Engine) {
		t.Errorf("%s: pipeline %d, min_responses %d, engine %q", where, st.Pipeline, st.MinResponses, st.Engine)
	}
	if !(st.Gate >= 0 && st.Gate <= 1) {
		t.Errorf("%s: gate %v outside 0..1", where, st.Gate)
	}
	if !(st.Rate >= 0) || math.IsInf(st.Rate, 0) {
		t.Errorf("%s: rate %v: want a finite rate ≥ 0", where, st.Rate)
	}
	if st.RateConnections < 1 && !(defaults && st.RateConnections == 0) {
		t.Errorf("%s: rate_connections %d", where, st.RateConnections)
	}
}
