// Package syslimits reads the system limits a load generator meets: the
// open-file limit (RLIMIT_NOFILE, per process) and the range of local
// ports the kernel picks from for outgoing connections. Linux reads
// /proc/sys; darwin reads sysctl. Other systems do not build.
package syslimits

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// OpenFiles returns the soft (cur) and hard (max) RLIMIT_NOFILE of this
// process, in descriptors. Go raises the soft limit to the hard one at
// start (on darwin to at most kern.maxfilesperproc).
func OpenFiles() (cur, max uint64, err error) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return 0, 0, fmt.Errorf("open-file limit: %w", err)
	}
	return uint64(rl.Cur), uint64(rl.Max), nil
}

// SetOpenFiles sets the soft RLIMIT_NOFILE to n descriptors, keeping the
// hard limit. Errors: n above what the system allows (openFilesCap: the
// hard limit; on darwin also kern.maxfilesperproc), naming that cap and
// how to lift it, or setrlimit's own error.
func SetOpenFiles(n uint64) error {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("open-file limit: %w", err)
	}
	if limit, name, hint := openFilesCap(uint64(rl.Max)); n > limit {
		return fmt.Errorf("open-file limit %d: above %s %d (%s)", n, name, limit, hint)
	}
	rl.Cur = n
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("open-file limit %d: %w", n, err)
	}
	return nil
}
