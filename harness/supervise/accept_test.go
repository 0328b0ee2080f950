package supervise

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// With AcceptPoll, readiness is the port's first accepted connection, not
// GET Ready 200: the never variant (503 to everything) starts, with a spawn
// → accept time, and the first request is the caller's. A server that exits
// before it listens is still an error naming its exit.
func TestStartAcceptPoll(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "never")
	o.AcceptPoll, o.ReadyTimeout = 2*time.Millisecond, 5*time.Second
	srv, err := start(t, spec, o)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(time.Second)
	if srv.SpawnToAccept <= 0 || srv.SpawnToAccept > o.ReadyTimeout {
		t.Errorf("spawn → accept %s, want within (0, %s]", srv.SpawnToAccept, o.ReadyTimeout)
	}
	resp, err := http.Get(srv.BaseURL + "/json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want the never variant's 503", resp.StatusCode)
	}
	srv.Stop(time.Second)

	e := options(t, build, "exit")
	e.AcceptPoll = 2 * time.Millisecond
	if _, err := start(t, spec, e); err == nil || !strings.Contains(err.Error(), "framework fixture variant exit: server exited before it was ready (exit status 3)") {
		t.Errorf("exit: %v", err)
	}
	ok := options(t, build, "")
	if srv, err := start(t, spec, ok); err != nil || srv.SpawnToAccept != 0 {
		t.Errorf("without AcceptPoll: spawn → accept %v (%v), want 0", srv, err)
	} else {
		srv.Stop(time.Second)
	}
}
