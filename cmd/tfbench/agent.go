package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tfbench/tfbench/harness/agent"
)

// remote are the flags naming a server host of its own (docs/remote.md), shared
// by bench, verify and ab.
type remote struct {
	opts     agent.Options
	machines string
}

func (r *remote) register(fs *flag.FlagSet) {
	fs.StringVar(&r.opts.ServerHost, "server-host", "", "run the servers on another host: [user@]host[:port], reached with ssh (tfbench copies itself there and runs tfbench agent; docs/remote.md)")
	fs.StringVar(&r.opts.ServerCmd, "server-cmd", "", "run the servers wherever this command's stdio reaches tfbench agent, e.g. 'kubectl exec -i POD -- tfbench agent'")
	fs.StringVar(&r.opts.ServerAddr, "server-addr", "", "the server host's address the load generator targets (default: --server-host's host; 127.0.0.1 with --server-cmd)")
	fs.StringVar(&r.machines, "machines", "", "YAML file with server_host, server_cmd, server_addr, ssh and agent_dir (flags given win)")
}

// connect reaches the server host the flags name, or returns nil when they
// name none; close ends the session (and reaps what a dead agent left).
func (r *remote) connect(ctx context.Context, log io.Writer) (*agent.Client, error) {
	if r.machines != "" {
		if err := agent.LoadMachines(r.machines, &r.opts); err != nil {
			return nil, err
		}
	}
	if !r.opts.Remote() {
		return nil, nil
	}
	r.opts.Log = log
	return agent.Connect(ctx, r.opts)
}

func agentCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("agent", "agent [--work DIR]", stderr)
	work := fs.String("work", ".tfbench-agent/work", "the agent's scratch folder: dataset, sources, builds, runs")
	if err := parse(fs, args); err != nil {
		return err
	}
	// ssh closing the session may hang up instead of closing stdin.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGHUP)
	defer stop()
	return agent.Serve(ctx, os.Stdin, stdout, agent.Config{WorkDir: *work})
}
