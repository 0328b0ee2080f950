package loadgencmp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// wrk 4.1's summaries, captured from real runs (testdata/*.txt): the
// requests line, Requests/sec, and the optional error lines.
func TestParseWrk(t *testing.T) {
	cases := []struct {
		file string
		want Report
	}{
		{"wrk-depth1.txt", Report{RPS: 57182.82, Responses: 59194}},
		{"wrk-depth16.txt", Report{RPS: 878415.80, Responses: 899200}},
		// Non-2xx responses are errors.
		{"wrk-errors.txt", Report{RPS: 1256.65, Responses: 1258, Errors: 1258}},
		// Socket errors (read 16092) and non-2xx (16092) add up.
		{"wrk-socket-errors.txt", Report{RPS: 14634.89, Responses: 16092, Errors: 32184}},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseWrk(string(data))
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.file, got, err, c.want)
		}
	}
}

func TestParseWrkMissingLines(t *testing.T) {
	if _, err := ParseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil ||
		!strings.HasPrefix(err.Error(), `wrk output has no "N requests in" line:`) {
		t.Errorf("error %v, want one naming the missing requests line", err)
	}
	if _, err := ParseWrk("  10 requests in 1.00s, 1KB read\n"); err == nil ||
		!strings.HasPrefix(err.Error(), `wrk output has no "Requests/sec:" line:`) {
		t.Errorf("error %v, want one naming the missing Requests/sec line", err)
	}
}

func TestParseTfbench(t *testing.T) {
	cases := []struct {
		in   string
		want Report
		err  string
	}{
		// As tfbench load --json prints a sample: errors by class, omitted
		// when there are none.
		{`{"responses": 1200, "rps": 120.5, "errors": {"read": 2, "status": 3}}`, Report{RPS: 120.5, Responses: 1200, Errors: 5}, ""},
		{`{"responses": 1200, "rps": 120.5}`, Report{RPS: 120.5, Responses: 1200}, ""},
		{`{"responses": 7, "rps": 7, "errors": 4}`, Report{RPS: 7, Responses: 7, Errors: 4}, ""},
		{`{"responses": 7}`, Report{}, `tfbench load --json: no "rps" or "responses" in "{\"responses\": 7}"`},
		{`{"responses": 7, "rps": 7, "errors": "x"}`, Report{}, `tfbench load --json: "errors" is "x", want a number or an object of numbers`},
		{`tfbench: unknown command "load"`, Report{}, `tfbench load --json: invalid character 'f' in literal true (expecting 'r') in "tfbench: unknown command \"load\""`},
	}
	for _, c := range cases {
		got, err := ParseTfbench([]byte(c.in))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// Depth 1 runs wrk without a script; deeper runs pass the depth to the
// pipelining script. Durations are whole seconds, as wrk's -d reads them.
func TestArgs(t *testing.T) {
	got := WrkArgs("http://127.0.0.1:8080/", 1, 64, 1, 10*time.Second, "/tmp/p.lua")
	want := []string{"-t", "1", "-c", "64", "-d", "10s", "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1", "http://127.0.0.1:8080/"}
	if !slices.Equal(got, want) {
		t.Errorf("WrkArgs depth 1: %q, want %q", got, want)
	}
	got = WrkArgs("http://127.0.0.1:8080/", 2, 256, 16, time.Minute, "/tmp/p.lua")
	want = []string{"-t", "2", "-c", "256", "-d", "60s", "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1",
		"-s", "/tmp/p.lua", "http://127.0.0.1:8080/", "--", "16"}
	if !slices.Equal(got, want) {
		t.Errorf("WrkArgs depth 16: %q, want %q", got, want)
	}
	got = TfbenchArgs("http://127.0.0.1:8080/", 256, 16, 10*time.Second)
	want = []string{"load", "http://127.0.0.1:8080/", "-c", "256", "-d", "10s", "--pipeline", "16", "--json"}
	if !slices.Equal(got, want) {
		t.Errorf("TfbenchArgs: %q, want %q", got, want)
	}
}

// The script is TFB's pipeline.lua in substance: one batch of depth
// wrk.format() requests built in init, returned by every request call.
func TestWrkScript(t *testing.T) {
	want := `-- loadgen-compare: pipelined batches for wrk (as TFB's pipeline.lua)
init = function(args)
  local depth = tonumber(args[1]) or 1
  local r = {}
  for i = 1, depth do
    r[i] = wrk.format()
  end
  req = table.concat(r)
end

request = function()
  return req
end
`
	if WrkScript != want {
		t.Errorf("WrkScript:\n%s\nwant:\n%s", WrkScript, want)
	}
}
