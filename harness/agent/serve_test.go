package agent

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadProfilesCap: profiles that fit one answer are read; more than
// maxProfiles together are refused, naming their folder, which is kept.
func TestReadProfilesCap(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "json.pprof")
	os.WriteFile(small, []byte("profile"), 0o644)
	files, err := readProfiles([]string{small}, dir)
	if err != nil || len(files) != 1 || files[0].Name != "json.pprof" || string(files[0].Data) != "profile" {
		t.Errorf("one small profile: %+v, %v", files, err)
	}
	big := filepath.Join(dir, "json.cpuprofile")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxProfiles) // sparse: no disk, no memory
	f.Close()
	_, err = readProfiles([]string{small, big}, dir)
	if want := "profiles of 99.6 MB in all (2 files), over the 95 MiB one answer carries: left on the server host in " + dir; !errors.Is(err, errProfilesKept) || err.Error() != want {
		t.Errorf("over the cap: %v\nwant %s", err, want)
	}
}
