package loadgencmp

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/cpuset"
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
		{"wrk-errors.txt", Report{RPS: 1256.65, Responses: 1258, Errors: 1258, ErrorDetail: "non-2xx/3xx 1258"}},
		// Socket errors (read 16092) and non-2xx (16092) add up.
		{"wrk-socket-errors.txt", Report{RPS: 14634.89, Responses: 16092, Errors: 32184, ErrorDetail: "read 16092, non-2xx/3xx 16092"}},
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
		{`{"responses": 1200, "rps": 120.5, "errors": {"status": 3, "read": 2, "check": 0}}`, Report{RPS: 120.5, Responses: 1200, Errors: 5, ErrorDetail: "read 2, status 3"}, ""},
		// Each class with its first message, quoted.
		{`{"responses": 9, "rps": 9, "errors": {"check": 1, "status": 2}, "error_examples": {"check": "body: want \"Hello, World!\"", "status": "status 500"}}`,
			Report{RPS: 9, Responses: 9, Errors: 3, ErrorDetail: `check 1 (first: "body: want \"Hello, World!\""), status 2 (first: "status 500")`}, ""},
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

// The exact argv per kind of shot: a fixed-response server's (no Accept
// header, no --type), and each adapter test's, whose Accept header is the
// same for both generators (wrk's -H, tfbench's --type); tfbench gets the
// dataset's path as --world for db, queries and page only (adapter shots
// all carry it). Depth 1 runs wrk without a script; deeper runs pass the
// depth to the pipelining script. Durations are whole seconds, as wrk's -d
// reads them.
func TestArgs(t *testing.T) {
	const (
		jsonAccept  = "Accept: application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
		htmlAccept  = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
		plainAccept = "Accept: text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	)
	c64, c256 := Settings[0], Settings[1]
	const world = "/w/.tfbench/dataset/tfb.db"
	cases := []struct {
		name         string
		shot         Shot
		threads      int
		wrk, tfbench []string
	}{
		{
			"fixed depth 1", Shot{URL: "http://127.0.0.1:8080/", Setting: c64, Duration: 10 * time.Second}, 1,
			[]string{"-t", "1", "-c", "64", "-d", "10s", "--timeout", "8s", "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1", "http://127.0.0.1:8080/"},
			[]string{"load", "http://127.0.0.1:8080/", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--json"},
		},
		{
			"fixed depth 16", Shot{URL: "http://127.0.0.1:8080/", Setting: c256, Duration: time.Minute}, 2,
			[]string{"-t", "2", "-c", "256", "-d", "60s", "--timeout", "8s", "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1",
				"-s", "/tmp/p.lua", "http://127.0.0.1:8080/", "--", "16"},
			[]string{"load", "http://127.0.0.1:8080/", "-c", "256", "-d", "60s", "--timeout", "8s", "--pipeline", "16", "--json"},
		},
		{
			"json", Shot{URL: "http://127.0.0.1:9000/json", Setting: c64, Type: model.JSON, Duration: 10 * time.Second, World: world}, 1,
			[]string{"-t", "1", "-c", "64", "-d", "10s", "--timeout", "8s", "-H", jsonAccept, "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1", "http://127.0.0.1:9000/json"},
			[]string{"load", "http://127.0.0.1:9000/json", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--type", "json", "--json"},
		},
		{
			"db", Shot{URL: "http://127.0.0.1:9000/db", Setting: c64, Type: model.DB, Duration: 10 * time.Second, World: world}, 1,
			[]string{"-t", "1", "-c", "64", "-d", "10s", "--timeout", "8s", "-H", jsonAccept, "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1", "http://127.0.0.1:9000/db"},
			[]string{"load", "http://127.0.0.1:9000/db", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--type", "db", "--world", world, "--json"},
		},
		{
			"fortunes", Shot{URL: "http://127.0.0.1:9000/fortunes", Setting: c64, Type: model.Fortunes, Duration: 2 * time.Second, World: world}, 1,
			[]string{"-t", "1", "-c", "64", "-d", "2s", "--timeout", "8s", "-H", htmlAccept, "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1", "http://127.0.0.1:9000/fortunes"},
			[]string{"load", "http://127.0.0.1:9000/fortunes", "-c", "64", "-d", "2s", "--timeout", "8s", "--pipeline", "1", "--type", "fortunes", "--json"},
		},
		{
			"plaintext", Shot{URL: "http://127.0.0.1:9000/plaintext", Setting: c256, Type: model.Plaintext, Duration: 10 * time.Second, World: world}, 1,
			[]string{"-t", "1", "-c", "256", "-d", "10s", "--timeout", "8s", "-H", plainAccept, "-H", "Connection: keep-alive", "-H", "User-Agent: tfbench/1",
				"-s", "/tmp/p.lua", "http://127.0.0.1:9000/plaintext", "--", "16"},
			[]string{"load", "http://127.0.0.1:9000/plaintext", "-c", "256", "-d", "10s", "--timeout", "8s", "--pipeline", "16", "--type", "plaintext", "--json"},
		},
	}
	// queries and page take --world too (not among AdapterTests), and a shot
	// without a dataset gets none.
	queries := Shot{URL: "http://127.0.0.1:9000/queries?queries=20", Setting: c64, Type: model.Queries, Duration: 10 * time.Second, World: world}
	page := Shot{URL: "http://127.0.0.1:9000/page?n=20", Setting: c64, Type: model.Page, Duration: 10 * time.Second, World: world}
	noWorld := Shot{URL: "http://127.0.0.1:9000/db", Setting: c64, Type: model.DB, Duration: 10 * time.Second}
	for _, c := range []struct {
		shot Shot
		want []string
	}{
		{queries, []string{"load", "http://127.0.0.1:9000/queries?queries=20", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--type", "queries", "--world", world, "--json"}},
		{page, []string{"load", "http://127.0.0.1:9000/page?n=20", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--type", "page", "--world", world, "--json"}},
		{noWorld, []string{"load", "http://127.0.0.1:9000/db", "-c", "64", "-d", "10s", "--timeout", "8s", "--pipeline", "1", "--type", "db", "--json"}},
	} {
		if got := TfbenchArgs(c.shot); !slices.Equal(got, c.want) {
			t.Errorf("%s: TfbenchArgs\n%q\nwant\n%q", c.shot.Type, got, c.want)
		}
	}
	for _, c := range cases {
		if got := WrkArgs(c.shot, c.threads, "/tmp/p.lua"); !slices.Equal(got, c.wrk) {
			t.Errorf("%s: WrkArgs\n%q\nwant\n%q", c.name, got, c.wrk)
		}
		if got := TfbenchArgs(c.shot); !slices.Equal(got, c.tfbench) {
			t.Errorf("%s: TfbenchArgs\n%q\nwant\n%q", c.name, got, c.tfbench)
		}
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

// TestThreads: wrk's -t is the generator's CPU count, or every CPU where
// nothing is pinned (macOS), matching tfbench's one event loop per CPU.
func TestThreads(t *testing.T) {
	if got := (Config{Generator: cpuset.Set{0, 2}}).threads(); got != 2 {
		t.Errorf("threads with generator CPUs 0,2 = %d, want 2", got)
	}
	if got, want := (Config{}).threads(), runtime.NumCPU(); got != want {
		t.Errorf("threads unpinned = %d, want NumCPU %d", got, want)
	}
}
