package agent

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/stage"
)

// checkName refuses a name the agent makes a path of (run id, tag, adapter,
// log, test) that could name a path elsewhere.
func checkName(s string) error {
	if s == "" || strings.ContainsAny(s, `/\`) || s == "." || s == ".." {
		return fmt.Errorf("%q is not a plain name", s)
	}
	return nil
}

// checkHash refuses a sources hash that is not stage.TreeHash's form, a
// SHA-256 in lowercase hex: its first 12 digits name a folder under src/.
func checkHash(s string) error {
	if len(s) != 2*sha256.Size || strings.Trim(s, "0123456789abcdef") != "" {
		return fmt.Errorf("%q is not a SHA-256 in %d lowercase hex digits", s, 2*sha256.Size)
	}
	return nil
}

// checkStage refuses a build folder other than the controller's
// stage.StageRoot form, build/NAME/SLUG: stage.Stage empties it first.
func checkStage(s string) error {
	parts := strings.Split(s, "/")
	if len(parts) != 3 || parts[0] != "build" || checkName(parts[1]) != nil || checkName(parts[2]) != nil {
		return fmt.Errorf("agent: stage %q is not a folder build/NAME/SLUG", s)
	}
	return nil
}

// sources unpacks an adapter's sources into src/HASH/NAME (kept: the same
// sources are not sent twice to a folder that has them), checks their
// TreeHash against the controller's, and loads its framework.yaml.
func (a *agent) sources(raw json.RawMessage) error {
	var args sourcesArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return err
	}
	if err := checkName(args.Name); err != nil {
		return fmt.Errorf("agent: sources name: %w", err)
	}
	if err := checkHash(args.Hash); err != nil {
		return fmt.Errorf("agent: sources of %s: hash %w", args.Name, err)
	}
	dir := filepath.Join(a.work, "src", args.Hash[:12], args.Name)
	got, err := stage.TreeHash(dir)
	if err != nil || got != args.Hash {
		os.RemoveAll(dir)
		tmp := filepath.Join(a.work, "src", "."+args.Hash[:12]+"-"+args.Name)
		os.RemoveAll(tmp)
		if err := stage.UnpackSources(args.Tar, tmp); err != nil {
			return err
		}
		if got, err = stage.TreeHash(tmp); err != nil {
			return err
		}
		if got != args.Hash {
			os.RemoveAll(tmp)
			return fmt.Errorf("sources of %s differ after the copy: sha256 %s on the controller, %s here", args.Name, args.Hash[:12], got[:12])
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
	}
	spec, err := framework.Load(filepath.Join(dir, framework.FileName))
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.specs[args.Hash+"/"+args.Name] = spec
	a.mu.Unlock()
	return nil
}
