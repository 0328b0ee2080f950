package main

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestMain runs main itself when GO_STDLIB_RUN_MAIN is 1, so a test can
// start the real server as a process (TestCPUProfileOnSIGTERM).
func TestMain(m *testing.M) {
	if os.Getenv("GO_STDLIB_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCPUProfileOnSIGTERM starts the server with TFBENCH_CPU_PROFILE set,
// loads it a little and stops it with SIGTERM as tfbench does: it exits 0
// and leaves a gzipped pprof profile at the path.
func TestCPUProfileOnSIGTERM(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GO_STDLIB_RUN_MAIN=1", "PORT="+strconv.Itoa(port), "DATABASE_PATH="+newDB(t), "TFBENCH_CPU_PROFILE="+prof)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/queries?queries=20"
	deadline := time.Now().Add(20 * time.Second)
	for n := 0; n < 200; {
		resp, err := http.Get(url)
		if err != nil {
			if time.Now().After(deadline) {
				t.Fatalf("not ready: %v\n%s", err, out.String())
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		resp.Body.Close()
		n++
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, out.String())
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 100 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("%s: %d bytes, not a gzipped pprof profile", prof, len(data))
	}
}
