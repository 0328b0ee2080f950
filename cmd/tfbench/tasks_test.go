package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTestTask runs Taskfile.yml's test task through go-task (the module's
// tool, run as go tool task does) with a stand-in `go` first on PATH, which logs each call (folder, CGO_ENABLED, arguments)
// and fails the calls a test names: every step runs, in order and in its
// folder, even after one failed; the task fails at the end naming each
// failed step; with none failed it passes; Ctrl-C (SIGINT to the task's
// process group, as a terminal sends it) stops it at once, no later step
// started.
func TestTestTask(t *testing.T) {
	if os.Getenv("TFBENCH_TEST_TASK_STUB") != "" {
		t.Skip("run by the test task TestTestTask started: the real go must not run the suite again")
	}
	// go-task itself, not `go tool task`: go tool puts GOROOT/bin first on
	// the task's PATH, before the stand-in.
	n, err := exec.Command("go", "tool", "-n", "task").Output()
	if err != nil {
		t.Fatalf("go tool -n task: %v", err)
	}
	taskBin := strings.TrimSpace(string(n))
	root, err := filepath.Abs("../..")
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		t.Fatal(err)
	}
	stub := t.TempDir()
	// The stand-in: FAIL lists the calls that exit 1, STOP the one that
	// sends SIGINT to its process group and waits for it.
	script := `#!/bin/sh
call="$(pwd -P) CGO_ENABLED=$CGO_ENABLED go $*"
echo "$call" >> "$STUB_LOG"
if grep -qxF "$call" "$STUB_STOP"; then kill -INT 0; sleep 5; fi
if grep -qxF "$call" "$STUB_FAIL"; then exit 1; fi
exit 0
`
	if err := os.WriteFile(filepath.Join(stub, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := []string{
		root + " CGO_ENABLED=0 go vet ./...",
		root + " CGO_ENABLED=0 go test -count=1 -timeout 45m ./...",
		root + "/frameworks/go-stdlib CGO_ENABLED=0 go test -count=1 -timeout 45m ./...",
		root + "/docs/k8s CGO_ENABLED=0 go test -count=1 ./...",
		root + "/frameworks/engine CGO_ENABLED=1 go test -count=1 -timeout 30m ./...",
	}
	// task runs the test task with the calls fail and stop; it returns the
	// calls made, the output and the exit status.
	task := func(fail, stop []string) (made []string, out string, code int) {
		t.Helper()
		dir := t.TempDir()
		log, failFile, stopFile := filepath.Join(dir, "log"), filepath.Join(dir, "fail"), filepath.Join(dir, "stop")
		os.WriteFile(failFile, []byte(strings.Join(fail, "\n")+"\n"), 0o644)
		os.WriteFile(stopFile, []byte(strings.Join(stop, "\n")+"\n"), 0o644)
		cmd := exec.Command(taskBin, "test")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PATH="+stub+string(os.PathListSeparator)+os.Getenv("PATH"), "TFBENCH_TEST_TASK_STUB=1",
			"STUB_LOG="+log, "STUB_FAIL="+failFile, "STUB_STOP="+stopFile, "NO_COLOR=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var b strings.Builder
		cmd.Stdout, cmd.Stderr = &b, &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Fatalf("go tool task test still running after a minute:\n%s", b.String())
		}
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSpace(string(data)), "\n"), b.String(), code
	}

	made, out, code := task([]string{calls[1], calls[4]}, nil)
	want := "go tool task test: 2 of 5 steps failed: go test -count=1 -timeout 45m ./..., cd frameworks/engine && CGO_ENABLED=1 go test -count=1 -timeout 30m ./...\n"
	if code == 0 || !strings.Contains(out, want) || strings.Join(made, "\n") != strings.Join(calls, "\n") {
		t.Errorf("two steps failing: exit %d, calls\n%s\nwant every step in order:\n%s\noutput (want it to end naming both):\n%s",
			code, strings.Join(made, "\n"), strings.Join(calls, "\n"), out)
	}
	for i, c := range []string{"go vet ./...", "cd docs/k8s && go test -count=1 ./..."} {
		if line := fmt.Sprintf("go tool task test [%d/5]: %s\n", []int{1, 4}[i], c); !strings.Contains(out, line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}

	made, out, code = task(nil, nil)
	if code != 0 || !strings.Contains(out, "go tool task test: 5 of 5 steps passed\n") || len(made) != 5 {
		t.Errorf("no step failing: exit %d, %d calls, output:\n%s", code, len(made), out)
	}

	made, out, code = task(nil, []string{calls[1]})
	if code == 0 || !strings.Contains(out, "go tool task test: interrupted\n") || strings.Join(made, "\n") != strings.Join(calls[:2], "\n") {
		t.Errorf("Ctrl-C in step 2: exit %d, calls\n%s\nwant the first two only; output:\n%s", code, strings.Join(made, "\n"), out)
	}
}
