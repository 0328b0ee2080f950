// Package serverhost is where a run's servers live: a Host builds adapters,
// starts servers on fresh dataset copies and reads their CPU, RSS and logs
// where they run. Local is this machine, harness/agent's Client another one
// reached over ssh or a stdio command (a two-host run).
package serverhost

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/probe"
)

// Host builds and runs servers on one machine for one run.
type Host interface {
	// Begin readies the host for a run: its source dataset (made when
	// missing), the run's folder there.
	Begin(ctx context.Context, run Run) error
	// Info is the machine's facts; ServerCPUs names the CPUs servers get.
	Info(ctx context.Context) (probe.Host, error)
	// Build stages and builds an adapter for one variant's runtime there.
	Build(ctx context.Context, req BuildRequest) (Build, error)
	// Start starts a server of a build on a fresh copy of the dataset.
	Start(ctx context.Context, req StartRequest) (Server, error)
	// Finish checks that the host's source dataset did not change during
	// the run ("dataset source P changed during the run (sha256 … → …)").
	Finish(ctx context.Context) error
	// Gone is the error that made the host unreachable (in ErrGone's
	// chain), nil while it can be reached; Local is never gone.
	Gone() error
	// Close stops every server still running there and releases the host.
	Close() error
}

// Run is what a host needs to know of the run it serves.
type Run struct {
	// ID is the run's ID; Dir its folder on the controller
	// (WORK/runs/ID): db/ copies, logs/, event-loop sockets live under the
	// host's own WORK/runs/ID.
	ID, Dir string
	// Keep keeps each server's database copy after it stops.
	Keep bool
	// Log receives progress lines ("dataset: generated P").
	Log io.Writer
}

// Networked is a Host on another machine: Network measures the path to it
// with the generator (TCP connect RTT, link capacity) before the first
// sample.
type Networked interface {
	Network(ctx context.Context) (*Network, error)
}

// Network is the path from the generator's host to the server's in a
// two-host run, measured over TCP with the generator before the first
// sample ((*agent.Client).Network); results.json records it as is.
type Network struct {
	// Transport is how the server host was reached: "ssh user@host" or
	// "command CMD".
	Transport string `json:"transport"`
	// Address is the server host's address the generator targets.
	Address string `json:"address"`
	// RTT is the median TCP connect time to the server host, ms.
	RTT float64 `json:"rtt_ms"`
	// LinkBytes is the link's measured capacity from the server host to
	// the generator, bytes/s: a sample whose responses came near it is
	// flagged (model.Sample.LinkSaturated).
	LinkBytes float64 `json:"link_bytes_per_s"`
}

// BuildRequest asks for one adapter built for one variant's runtime.
type BuildRequest struct {
	// Spec is the adapter as the controller found it (Spec.Dir: sources).
	Spec    *framework.Spec
	Variant framework.Variant
	// Stage is the stage folder relative to the work dir,
	// "build/NAME/RUNTIME[+VARIANT][@TAG]" (stage.StageRoot).
	Stage string
	// LogName is the build log's file name in the run's logs/ folder.
	LogName string
	// Log receives the build's output; Progress the runtime's lines
	// (downloading, installed, reusing). Either may be nil.
	Log, Progress io.Writer
}

// Build is an adapter built on a host.
type Build struct {
	// ID is the host's handle of the build, for StartRequest.Build.
	ID string
	// Hash is the hex SHA-256 of the build's inputs (stage.SourceHash).
	Hash string
	// Runtime is the exact runtime built for ("go1.26.8", "node@24.11.1").
	Runtime string
	// Text is the build's one-line summary for the run's log.
	Text string
	// Install is the time spent installing (or finding) the runtime, part of
	// the build's wall time; 0 from a server host of its own.
	Install time.Duration
}

// StartRequest asks for one server of a build.
type StartRequest struct {
	Build   string // Build.ID
	Variant string // the variant's name
	// Tag names the server's database copy, log and event-loop folder
	// ("go-stdlib-default-r1").
	Tag string
	// Profile CPU-profiles the server into a scratch folder that
	// Server.Profiles reads once it has stopped.
	Profile bool
	// Grace is the least SIGTERM grace Stop gives (a profiled server
	// writes its profiles on exit); 0 is none.
	Grace time.Duration
	// AcceptPoll, when > 0, makes readiness the port's first accepted TCP
	// connection, tried this often from the spawn (supervise.StartOptions);
	// the Server is then an Accepting. Hosts that cannot do it ignore it.
	AcceptPoll time.Duration
}

// Accepting is a Server started with StartRequest.AcceptPoll:
// SpawnToAccept is the time from its spawn to the first TCP connection its
// port accepted (coldstart).
type Accepting interface {
	SpawnToAccept() time.Duration
}

// Server is a started, ready server on a host. Its methods serve different
// callers, so it is the sum of the parts below and a caller that needs one
// part (the generator its address, the fault count its log) takes that one.
type Server interface {
	Endpoint
	Process
	Logs
	Meter
	// Database is the server's own database copy (verification's checks
	// and the page check's World table run against it where it is),
	// opened on first use and closed by Stop.
	Database() (dataset.Database, error)
	// Profiles moves the profiles a stopped, profiled server wrote into
	// dest on this host, named after test (CollectProfiles).
	Profiles(dest, test string) ([]string, error)
}

// Endpoint is where the generator and verification's requests reach a
// server.
type Endpoint interface {
	// Addr is "HOST:PORT" as the generator reaches it; BaseURL is
	// "http://" + Addr.
	Addr() string
	BaseURL() string
}

// Process is a server's process group on its host, as the run starts,
// watches and stops it.
type Process interface {
	// Pid is the server's process-group leader on its host.
	Pid() int
	// Done is closed once the server's leader has exited; Err then says
	// how ("exit status 2"), nil before.
	Done() <-chan struct{}
	Err() error
	// Stop stops the server's processes (SIGTERM, then after grace
	// SIGKILL) and removes its database copy unless the run keeps them.
	Stop(grace time.Duration) error
}

// Logs is a server's log, which errors quote and each sample's gate reads
// for SQLITE_BUSY lines.
type Logs interface {
	// LogPath names the server's log: a path, or HOST:PATH on another host.
	LogPath() string
	// LogTail is the last n lines the server wrote in this run.
	LogTail(n int) string
	// LogMark is the log's size in bytes now; LogFaults counts its lines
	// since mark that name SQLITE_BUSY (LogFaults, the function).
	LogMark() int64
	LogFaults(mark int64) int64
}

// Meter is what a sample reads of a server around its window: CPU and
// memory of its process tree, and its runtimes' event-loop delay.
type Meter interface {
	// Usage reads the server's process tree: CPU seconds and peak RSS.
	Usage(ctx context.Context) (probe.Usage, error)
	// Monitored reports whether the server's runtimes are asked for their
	// event-loop delay (Node) and memory (Node, Go adapters with the hook);
	// EventLoopReset clears both before a window, EventLoopRead reads them
	// after. A server that is not Node and does not answer reads as nothing.
	Monitored() bool
	EventLoopReset(ctx context.Context) error
	EventLoopRead(ctx context.Context) (eventloop.Window, error)
}

// ErrGone is in the chain of every error a Host or Server returns once the
// host cannot be reached (its agent died or its transport closed): a run
// ends then, keeping what it measured.
var ErrGone = errors.New("server host gone")

// DatasetPath is where a work dir keeps the source dataset.
func DatasetPath(workDir string) string { return filepath.Join(workDir, "dataset", "tfb.db") }
