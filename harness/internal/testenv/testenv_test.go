package testenv

import (
	"path/filepath"
	"testing"
)

func TestRuntimesDir(t *testing.T) {
	t.Setenv("TFBENCH_TEST_RUNTIMES", "/srv/runtimes")
	if got, err := RuntimesDir(); err != nil || got != "/srv/runtimes" {
		t.Errorf("RuntimesDir() = %q, %v; want /srv/runtimes", got, err)
	}
	t.Setenv("TFBENCH_TEST_RUNTIMES", "")
	t.Setenv("XDG_CACHE_HOME", "/home/u/.cache")
	if got, err := RuntimesDir(); err != nil || got != filepath.Join("/home/u/.cache", "tfbench", "runtimes") {
		t.Errorf("RuntimesDir() = %q, %v; want /home/u/.cache/tfbench/runtimes", got, err)
	}
}
