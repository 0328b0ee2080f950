// Package agent runs a run's servers on another host: `tfbench agent` there
// serves a small versioned JSON protocol on its stdin and stdout (Serve),
// and the controller's Client, started through ssh or any stdio command, is
// a serverhost.Host over it. No port is opened for the protocol: the
// transport's own authentication is the only one (docs/remote.md).
//
// The protocol is one JSON object per line (docs/remote.md, The protocol);
// hello refuses another version; at stdin's end the agent stops its servers.
package agent

import "encoding/json"

// Protocol is the version of the protocol this tfbench speaks; hello
// refuses any other.
const Protocol = 1

// request is one line from the controller.
type request struct {
	ID   uint64          `json:"id"`
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args,omitempty"`
}

// message is one line from the agent: an answer (Result or Error), a
// stream line of a request in flight (Stream, Text) or an event (Event).
type message struct {
	ID     uint64          `json:"id,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	Stream string          `json:"stream,omitempty"` // "log" (build output) or "progress"
	Text   string          `json:"text,omitempty"`
	Event  string          `json:"event,omitempty"` // "exited", "beat" (alive.go)
	Server string          `json:"server,omitempty"`
}

// The requests' arguments and results.
type (
	helloArgs struct {
		Protocol    int   `json:"protocol"`
		HeartbeatMS int64 `json:"heartbeat_ms,omitempty"` // the controller pings at least this often (alive.go)
	}
	helloResult struct {
		Protocol    int    `json:"protocol"`
		Pid         int    `json:"pid"` // the agent's process id, for reap
		OS          string `json:"os"`
		Arch        string `json:"arch"`
		Work        string `json:"work"`                   // the agent's work folder (absolute)
		HeartbeatMS int64  `json:"heartbeat_ms,omitempty"` // the agent sends a beat at least this often
	}
	beginArgs struct {
		RunID         string `json:"run_id"`
		Keep          bool   `json:"keep"`
		AllInterfaces bool   `json:"all_interfaces"`
	}
	sourcesArgs struct {
		Name string `json:"name"`
		Hash string `json:"hash"` // stage.TreeHash of the controller's folder
		Tar  []byte `json:"tar"`  // gzipped tar of the folder (stage.PackSources)
	}
	buildArgs struct {
		Name    string `json:"name"`
		Hash    string `json:"hash"` // the sources' TreeHash (two trees of one adapter: ab --new-dir)
		Variant string `json:"variant"`
		Stage   string `json:"stage"`
		LogName string `json:"log_name"`
	}
	buildResult struct {
		ID, Hash, Runtime, Text string
	}
	startArgs struct {
		Build   string `json:"build"`
		Variant string `json:"variant"`
		Tag     string `json:"tag"`
		Profile bool   `json:"profile"`
		GraceMS int64  `json:"grace_ms"`
	}
	startResult struct {
		Server    string `json:"server"`
		Port      int    `json:"port"`
		Pid       int    `json:"pid"`
		LogPath   string `json:"log_path"`
		Monitored bool   `json:"monitored"`
	}
	serverArgs struct {
		Server  string `json:"server"`
		N       int    `json:"n,omitempty"`        // log_tail lines
		Mark    int64  `json:"mark,omitempty"`     // log_faults
		GraceMS int64  `json:"grace_ms,omitempty"` // stop
		Test    string `json:"test,omitempty"`     // profiles
	}
	dbArgs struct {
		Server  string `json:"server"`
		Call    string `json:"call"` // world, insert_fortune, delete_fortune, set_random_number
		Message string `json:"message,omitempty"`
		ID      int    `json:"id,omitempty"`
		N       int64  `json:"n,omitempty"`
	}
	file struct {
		Name string `json:"name"`
		Data []byte `json:"data"`
	}
	linkResult struct {
		Port int `json:"port"`
	}
	reapArgs struct {
		Pid int `json:"pid"`
	}
	cancelArgs struct {
		ID uint64 `json:"id"`
	}
)
