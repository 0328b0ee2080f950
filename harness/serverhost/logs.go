package serverhost

import (
	"bytes"
	"io"
	"os"
)

// maxLogScan is the most bytes of a server's log one sample's scan reads:
// the first 1 MiB the server wrote during the sample.
const maxLogScan = 1 << 20

// LogSize is the size of the file at path in bytes; 0 when it cannot be
// read.
func LogSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// LogFaults counts the lines of the server log at path from byte offset
// from on (at most maxLogScan bytes) naming SQLITE_BUSY or "database is
// locked" in any case (Sample.ServerLogFaults); an unreadable log counts 0.
func LogFaults(path string, from int64) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	b, err := io.ReadAll(io.NewSectionReader(f, from, maxLogScan))
	if err != nil {
		return 0
	}
	var n int64
	for line := range bytes.Lines(b) {
		l := bytes.ToLower(line)
		if bytes.Contains(l, []byte("sqlite_busy")) || bytes.Contains(l, []byte("database is locked")) {
			n++
		}
	}
	return n
}
