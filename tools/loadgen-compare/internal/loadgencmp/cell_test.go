package loadgencmp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// frameworksDir is the repository's adapters folder.
var frameworksDir = filepath.Join("..", "..", "..", "..", "frameworks")

// cellText is one line per cell: server, test, path, setting, target.
func cellText(cells []*Cell) string {
	var b strings.Builder
	for _, c := range cells {
		fmt.Fprintf(&b, "%s %s %s %s %+v\n", c.Server, c.Test(), c.Path, c.Setting, c.Target)
	}
	return b.String()
}

// The default servers give 12 cells in server order: each fixed server at
// both settings against FixedTarget, then each adapter's four tests at
// their paths from framework.yaml against AdapterTarget.
func TestPlanDefault(t *testing.T) {
	cfg := Config{Frameworks: frameworksDir, Rounds: 5, Duration: 10 * time.Second}
	cells, specs, err := cfg.plan()
	if err != nil {
		t.Fatal(err)
	}
	want := `length - / c=64 depth 1 {RPS:0.95 CPU:1}
length - / c=256 depth 16 {RPS:0.95 CPU:1}
chunked - / c=64 depth 1 {RPS:0.95 CPU:1}
chunked - / c=256 depth 16 {RPS:0.95 CPU:1}
go-stdlib json /json c=64 depth 1 {RPS:0.98 CPU:1}
go-stdlib db /db c=64 depth 1 {RPS:0.98 CPU:1}
go-stdlib fortunes /fortunes c=64 depth 1 {RPS:0.98 CPU:1}
go-stdlib plaintext /plaintext c=256 depth 16 {RPS:0.98 CPU:1}
node-http json /json c=64 depth 1 {RPS:0.98 CPU:1}
node-http db /db c=64 depth 1 {RPS:0.98 CPU:1}
node-http fortunes /fortunes c=64 depth 1 {RPS:0.98 CPU:1}
node-http plaintext /plaintext c=256 depth 16 {RPS:0.98 CPU:1}
`
	if got := cellText(cells); got != want {
		t.Errorf("cells:\n%swant:\n%s", got, want)
	}
	if len(specs) != 2 || specs["go-stdlib"] == nil || specs["node-http"] == nil {
		t.Errorf("specs %v, want go-stdlib and node-http", specs)
	}
	if cells[4].String() != "go-stdlib json c=64 depth 1" || cells[0].String() != "length c=64 depth 1" {
		t.Errorf("cell names %q, %q", cells[4], cells[0])
	}
}

// --servers picks servers and their order; fixed servers alone never read
// the adapters' folder.
func TestPlanServers(t *testing.T) {
	cfg := Config{Servers: []string{"node-http", Chunked}, Frameworks: frameworksDir, Rounds: 1, Duration: time.Second}
	cells, specs, err := cfg.plan()
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 6 || cells[0].Server != "node-http" || cells[4].Server != Chunked || len(specs) != 1 {
		t.Errorf("cells:\n%sspecs %v", cellText(cells), specs)
	}
	cfg = Config{Servers: []string{Length}, Frameworks: "no-such-folder", Rounds: 1, Duration: time.Second}
	if cells, _, err := cfg.plan(); err != nil || len(cells) != 2 {
		t.Errorf("fixed server only: %d cells, %v", len(cells), err)
	}
}

func TestPlanErrors(t *testing.T) {
	tiny := filepath.Join("testdata", "frameworks") // one adapter, tiny, without endpoints
	ok := Config{Frameworks: frameworksDir, Rounds: 5, Duration: 10 * time.Second, Warmup: 2 * time.Second}
	cases := []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Rounds = 0 }, "rounds is 0, want >= 1"},
		{func(c *Config) { c.Duration = 1500 * time.Millisecond }, "duration is 1.5s, want whole seconds >= 1s (wrk's -d unit)"},
		{func(c *Config) { c.Warmup = -time.Second }, "warmup is -1s, want whole seconds >= 0s"},
		{func(c *Config) { c.Servers = []string{"length", "length"} }, `server "length" is given twice`},
		{func(c *Config) { c.Servers, c.Frameworks = []string{"nginx"}, tiny },
			`unknown server "nginx": not a fixed-response server (length, chunked) nor an adapter in testdata/frameworks (tiny)`},
		{func(c *Config) { c.Servers, c.Frameworks = []string{"tiny"}, tiny },
			"adapter tiny has no json path under endpoints: in its framework.yaml"},
		{func(c *Config) { c.Servers, c.Frameworks = []string{"go-stdlib"}, "no-such-folder" },
			"framework: discover: stat no-such-folder: no such file or directory"},
	}
	for _, c := range cases {
		cfg := ok
		c.change(&cfg)
		if err := cfg.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

func TestAdapterCells(t *testing.T) {
	_, err := AdapterCells("x", map[model.TestType]string{model.JSON: "/j", model.DB: "/d", model.Plaintext: "/p"})
	if want := "adapter x has no fortunes path under endpoints: in its framework.yaml"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if err := checkServers(nil, nil, "frameworks"); err == nil || err.Error() != "no servers given (known: length, chunked, and the adapters in frameworks)" {
		t.Errorf("no servers: %v", err)
	}
}
