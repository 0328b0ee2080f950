package run

import (
	"os"
	"path/filepath"
)

// LatestResults is the path of the newest benchmark run's results.json
// under workDir: runs/latest is a symbolic link to the folder of the newest
// Bench run (Verify runs do not move it).
func LatestResults(workDir string) string {
	return filepath.Join(workDir, "runs", "latest", "results.json")
}

// linkLatest points runs/latest at runs/<id>, replacing any older link
// atomically (a new link renamed over the old one).
func linkLatest(runsDir, id string) error {
	tmp := filepath.Join(runsDir, ".latest-"+id)
	os.Remove(tmp)
	if err := os.Symlink(id, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(runsDir, "latest"))
}
