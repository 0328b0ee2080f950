package testenv

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestRuntimesDir(t *testing.T) {
	t.Setenv("TFBENCH_TEST_RUNTIMES", "/srv/runtimes")
	if got, err := RuntimesDir(); err != nil || got != "/srv/runtimes" {
		t.Errorf("RuntimesDir() = %q, %v; want /srv/runtimes", got, err)
	}
	t.Setenv("TFBENCH_TEST_RUNTIMES", "")
	t.Setenv("XDG_CACHE_HOME", "/home/u/.cache")
	t.Setenv("HOME", "/Users/u")
	// os.UserCacheDir: $XDG_CACHE_HOME on Linux, $HOME/Library/Caches on
	// darwin (which ignores XDG_CACHE_HOME).
	cache := "/home/u/.cache"
	if runtime.GOOS == "darwin" {
		cache = "/Users/u/Library/Caches"
	}
	want := filepath.Join(cache, "tfbench", "runtimes")
	if got, err := RuntimesDir(); err != nil || got != want {
		t.Errorf("RuntimesDir() = %q, %v; want %s", got, err, want)
	}
}
