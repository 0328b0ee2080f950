package results

import "fmt"

// Equivalence is tfbench ab's verdict on one test's response from its two
// targets (harness/equiv): the bodies fetched before measuring, compared
// byte for byte after masking what changes per request or per build.
type Equivalence struct {
	Test string `json:"test"`
	// Path is what was requested, N filled in ("/ssr?rows=10000"); when
	// the two adapters' paths differ, "BASE → NEW".
	Path      string `json:"path"`
	Identical bool   `json:"identical"`
	// Offset is the first differing byte of the masked base body, -1 when
	// identical or not compared; Base and New are each side's masked bytes
	// within 40 of it (whole UTF-8 characters), empty when identical.
	Offset int    `json:"offset"`
	Base   string `json:"base,omitempty"`
	New    string `json:"new,omitempty"`
	// Masks is how many mask matches were replaced in the base body.
	Masks int `json:"masks"`
	// Error says why the bodies were not compared (a side failed to build,
	// start or answer); Identical is then false and Offset -1.
	Error string `json:"error,omitempty"`
}

// Equivalence records byte-equivalence verdicts and rewrites the file.
func (r *Recorder) Equivalence(es ...Equivalence) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Equivalence = append(r.f.Equivalence, es...)
	return r.write()
}

// Text is the verdict as tfbench ab prints it: "identical (2 masks
// applied)", `differs at byte 1234: base "…" new "…"` (excerpts quoted
// with %q) or "not compared: " and Error.
func (e Equivalence) Text() string {
	switch {
	case e.Error != "":
		return "not compared: " + e.Error
	case e.Identical:
		return fmt.Sprintf("identical (%d masks applied)", e.Masks)
	}
	return fmt.Sprintf("differs at byte %d: base %q new %q", e.Offset, e.Base, e.New)
}
