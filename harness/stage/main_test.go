package stage

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/supervise"
)

// envDetach, set to 1, makes this test binary the middle of a double fork
// (see detachMain) instead of running the tests.
const envDetach = "STAGE_TEST_DETACH"

// detachMain starts os.Args[1:] in a session of its own
// (SysProcAttr.Setsid; setsid(1) is missing on macOS) with the standard
// files on /dev/null and without envDetach, prints its pid once it has
// exec'd (Start returns only then) and exits, so it is re-parented.
func detachMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, envDetach+": no command")
		os.Exit(2)
	}
	c := exec.Command(os.Args[1], os.Args[2:]...)
	c.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, envDetach+"=") })
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, envDetach+":", err)
		os.Exit(1)
	}
	fmt.Println(c.Process.Pid)
	os.Exit(0)
}

func TestMain(m *testing.M) {
	if os.Getenv(envDetach) == "1" {
		detachMain()
	}
	code := m.Run()
	// Nothing a build started may outlive the tests.
	if n, err := supervise.KillOwnedBy(os.Getpid()); err != nil || n > 0 {
		fmt.Fprintf(os.Stderr, "%d processes tagged %s=%d-* were left running; killed them (%v)\n", n, framework.EnvOwner, os.Getpid(), err)
		code = 1
	}
	os.Exit(code)
}
