package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/results"
)

// The fixtures in testdata/compare are one-test runs (json, c=16, 5
// rounds) of go-stdlib and nextjs: slow.json has nextjs ≈ 18% slower
// (fully separated rounds), same.json has rounds that interleave base's,
// method1.json is base.json measured by method version 1.
const fixtures = "testdata/compare/"

func runCompare(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), append([]string{"compare"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCompareSlowerExits1(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "compare.json")
	code, stdout, stderr := runCompare(t, fixtures+"base.json", fixtures+"slow.json", "--json", js)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if want := "tfbench compare: 1 of 2 rows slower than base: nextjs/default json\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	for _, want := range []string{
		"# tfbench compare: testdata/compare/base.json → testdata/compare/slow.json\n",
		"| go-stdlib | default | json |   |        50,000 |       50,500 |    1.01× |          1.00× |           0.020 |          0.020 |  +1.0% |      1 |        1 | same    |",
		"| nextjs    | default | json |   |         2,000 |        1,600 |    0.80× |          0.79× |           0.500 |          0.500 | -20.0% | 0.0079 |    0.016 | slower  |",
		"Verdicts: 1 slower, 0 faster, 1 same, 0 unknown.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// --json decodes to the rows the package computes from the same files.
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var got compare.Table
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	base, err := results.ReadSet(fixtures + "base.json")
	if err != nil {
		t.Fatal(err)
	}
	slow, err := results.ReadSet(fixtures + "slow.json")
	if err != nil {
		t.Fatal(err)
	}
	o := compare.DefaultOptions()
	o.BaseName, o.NewName = fixtures+"base.json", fixtures+"slow.json"
	want, err := compare.Sets(base, slow, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Rows, want.Rows) {
		t.Errorf("JSON rows\n%+v\nwant\n%+v", got.Rows, want.Rows)
	}
	if got.Rows[1].Verdict != compare.Slower || math.Abs(got.Rows[1].P-2.0/252) > 1e-12 {
		t.Errorf("nextjs row %+v", got.Rows[1])
	}
}

// TestCompareOtherHostUnknown is the nightly's case of a stored baseline
// from another runner: slow.json (nextjs 20% slower, fully separated) moved
// to another CPU model gives unknown rows and exit 0, never slower.
func TestCompareOtherHostUnknown(t *testing.T) {
	f, err := results.Read(fixtures + "slow.json")
	if err != nil {
		t.Fatal(err)
	}
	f.Host.CPUModel, f.Host.Runner = "AMD EPYC 7763 64-Core Processor", "ubuntu24"
	moved := filepath.Join(t.TempDir(), "other-host.json")
	if err := results.Write(moved, f); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCompare(t, "--basis", "ratio", fixtures+"base.json", moved)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q, want 0 and nothing\nstdout:\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		"Verdicts: 0 slower, 0 faster, 0 same, 1 unknown.",
		"hosts differ: cpu_model",
		"hosts differ, rows unknown (testdata/compare/base.json run base, ",
		`runner "" vs "ubuntu24"`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

func TestCompareSameExits0(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site", "compare.md")
	// Flags after the files parse too.
	code, stdout, stderr := runCompare(t, fixtures+"base.json", fixtures+"same.json", "--out", out, "--basis", "ratio", "--min-change", "3%")
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if stdout != "wrote "+out+"\n" || stderr != "" {
		t.Errorf("stdout %q stderr %q", stdout, stderr)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- Basis ratio: per-round RPS ÷ go-stdlib/default RPS of the same run and round at each side's own peak level\n",
		"and its median changed by at least 3%",
		"Verdicts: 0 slower, 0 faster, 1 same, 0 unknown.",
		"| nextjs    | default | json |",
		"- basis ratio: the reference go-stdlib/default is the divisor, its own rows are left out\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("%s lacks %q:\n%s", out, want, md)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("%d files in %s, want only compare.md (no temp file left)", len(entries), filepath.Dir(out))
	}
}

func TestCompareRefusalExits2(t *testing.T) {
	code, stdout, stderr := runCompare(t, fixtures+"method1.json", fixtures+"base.json")
	want := "tfbench compare: results do not compare: testdata/compare/method1.json: method version 1, testdata/compare/base.json: method version 2: results measured by different methods never compare\n"
	if code != 2 || stderr != want || stdout != "" {
		t.Errorf("exit %d stdout %q stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
	}
}

// TestCompareUnreadableExits2: an input that is missing or not results
// gives no verdict, and exits 2, not the 1 that means "slower" (the nightly
// would otherwise read a broken baseline as a regression, or worse, as
// none).
func TestCompareUnreadableExits2(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("not json"), 0o644)
	for _, args := range [][]string{{fixtures + "base.json", "testdata/compare/missing.json"}, {bad, fixtures + "base.json"}} {
		code, _, stderr := runCompare(t, args...)
		if code != 2 || !strings.HasPrefix(stderr, "tfbench compare: ") {
			t.Errorf("%v: exit %d stderr %q; want 2", args, code, stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"ab", "--suite", "testdata/ab.yaml", "--frameworks-dir", "../../frameworks", "--rounds", "3", "engine:pool", "serialized"}, &stdout, &stderr); code != 2 {
		t.Errorf("ab with 3 rounds: exit %d (%s), want 2", code, stderr.String())
	} else if !strings.Contains(stderr.String(), "ab needs at least 5 interleaved rounds, got 3") {
		t.Errorf("ab with 3 rounds: %s", stderr.String())
	}
}

func TestCompareUsageExits2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{fixtures + "base.json"}, "compare needs two results files, BASE and NEW; got 1"},
		{[]string{"--basis", "cpu", fixtures + "base.json", fixtures + "slow.json"}, "--basis cpu: want rps or ratio"},
		{[]string{"--alpha", "1.5", fixtures + "base.json", fixtures + "slow.json"}, "--alpha 1.5: want 0 < α < 1"},
		{[]string{"--min-change", "150%", fixtures + "base.json", fixtures + "slow.json"}, `invalid value "150%" for flag -min-change: "150%": want 0% ≤ change < 100%`},
		{[]string{"--min-change", "5", fixtures + "base.json", fixtures + "slow.json"}, `"5": want 0% ≤ change < 100%`},
	} {
		code, stdout, stderr := runCompare(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "Usage: tfbench compare") || stdout != "" {
			t.Errorf("%v: exit %d stdout %q stderr %q; want 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if code, _, _ := runCompare(t, "--help"); code != 0 {
		t.Errorf("--help: exit %d, want 0", code)
	}
}

func TestCompareShareFlag(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "0%": 0, "12.5%": 0.125} {
		var s share
		if err := s.Set(in); err != nil || float64(s) != want {
			t.Errorf("Set(%q) = %v, %v; want %v", in, float64(s), err, want)
		}
	}
	if s := share(0.05); s.String() != "5%" {
		t.Errorf("String() = %q, want 5%%", s.String())
	}
}
