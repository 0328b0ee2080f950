package model

// Flush is one read that brought body bytes of a streamed response: At is µs
// from the request's start (TTFB's start), End the decoded body bytes
// received up to and with it (load.Timeline).
type Flush struct {
	At  int64 `json:"at_us"`
	End int64 `json:"end_bytes"`
}

// StreamRecord is a stream sample's timeline (test type stream, docs/ssr.md "The
// streamed page"): when the shell and each of the K parts arrived, from the
// checked responses' flushes. Times in ms, histograms in µs encoded as
// Sample.Histogram is.
type StreamRecord struct {
	// Parts is K, the parts each page held.
	Parts int `json:"parts"`
	// Responses is how many checked responses gave their timeline.
	Responses int64 `json:"responses"`
	// Shell is the first byte's arrival (the shell's TTFB); Last the last
	// byte's.
	Shell     Latency `json:"shell_ttfb"`
	Last      Latency `json:"last_byte"`
	ShellHist []byte  `json:"shell_histogram,omitempty"`
	LastHist  []byte  `json:"last_histogram,omitempty"`
	// Part[k] is part k's arrival: the read that brought the end of its
	// table; PartHist[k] its histogram.
	Part     []Latency `json:"part_arrival"`
	PartHist [][]byte  `json:"part_histograms,omitempty"`
	// BytesPerFlush is the mean body bytes a flush brought; Flushes the
	// mean flushes per response (reads that brought body bytes, first 32).
	BytesPerFlush float64 `json:"bytes_per_flush"`
	Flushes       float64 `json:"flushes_per_response"`
	// OneFlush counts the responses whose shell and last part came in the
	// same flush (nothing streamed).
	OneFlush int64 `json:"one_flush"`
	// Streamed is false when every response of a low-rate sample came in
	// one flush; Reason then says so ("not streamed: ..."). Under load
	// (closed loop) coalesced reads are expected: Streamed is true and
	// Reason empty.
	Streamed bool   `json:"streamed"`
	Reason   string `json:"reason,omitempty"`
}
