package sweep

import (
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
)

// FromResult fills TTFB (summary and histogram), BodyBytes and the probe's
// record from a load result; a result without them (engine hey) leaves
// TTFB and model.Probe nil.
func TestFromResultTTFBAndProbe(t *testing.T) {
	lat, ttfb, probe := hdrhistogram.New(1, 8_000_000, 3), hdrhistogram.New(1, 8_000_000, 3), hdrhistogram.New(1, 8_000_000, 3)
	for i := int64(1); i <= 1000; i++ {
		lat.RecordValue(50_000 + i)  // 50 ms and a little
		ttfb.RecordValue(i * 10)     // 10 µs .. 10 ms
		probe.RecordValue(i*30 + 10) // 40 µs .. 30 ms
	}
	r := &load.Result{
		Window: 2 * time.Second, Responses: 1000, Success: 1000, StatusCounts: map[int]int64{200: 1000},
		Latency: lat, TTFB: ttfb, BodyBytes: 1_234_567_000,
		Probe: &load.Result{
			Window: 2 * time.Second, Responses: 99, Success: 98, StatusCounts: map[int]int64{200: 98, 503: 1},
			Errors:    map[load.Class]int64{load.Status: 1, load.Read: 1},
			Examples:  map[load.Class]string{load.Status: "status 503 for GET /plaintext", load.Read: "read 127.0.0.1:8080: connection reset by peer"},
			Latency:   probe,
			ProbeSpec: &load.Probe{Path: "/plaintext", Interval: 20 * time.Millisecond},
		},
	}
	s, err := FromResult(model.Key{ID: model.ID{Framework: "f"}, Test: "page"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if s.BodyBytes != 1_234_567_000 {
		t.Errorf("BodyBytes %d, want 1234567000", s.BodyBytes)
	}
	if s.TTFB == nil || s.TTFB.P50 != 5.003 || s.TTFB.Max != 10.007 {
		t.Errorf("TTFB %+v, want p50 5.003 ms, max 10.007 ms", s.TTFB)
	}
	if back, err := hdrhistogram.Decode(s.TTFBHistogram); err != nil || back.TotalCount() != 1000 || back.Max() != ttfb.Max() {
		t.Errorf("stored TTFB histogram: %v", err)
	}
	p := s.Probe
	if p == nil {
		t.Fatal("Probe is nil")
	}
	if p.Path != "/plaintext" || p.Interval != 20 || p.Responses != 99 || p.Success != 98 || p.Errors["status"] != 1 || p.Errors["read"] != 1 ||
		p.Examples["status"] != "status 503 for GET /plaintext" || p.Examples["read"] != "read 127.0.0.1:8080: connection reset by peer" {
		t.Errorf("probe %+v", *p)
	}
	if p.Latency.P50 != 15.015 || p.Latency.Max != 30.015 {
		t.Errorf("probe latency %+v, want p50 15.015 ms, max 30.015 ms (HDR bucket bounds)", p.Latency)
	}
	if back, err := hdrhistogram.Decode(p.Histogram); err != nil || back.TotalCount() != 1000 {
		t.Errorf("stored probe histogram: %v", err)
	}
	s, err = FromResult(model.Key{Engine: "hey"}, &load.Result{Window: time.Second, Latency: lat})
	if err != nil || s.TTFB != nil || s.TTFBHistogram != nil || s.Probe != nil {
		t.Errorf("hey result: TTFB %v, %d histogram bytes, probe %v, error %v; want nil, 0, nil, nil", s.TTFB, len(s.TTFBHistogram), s.Probe, err)
	}
}

// The probe fails the gate with reasons of its own, each starting
// "probe: ", after the sample's own reasons.
func TestGateProbe(t *testing.T) {
	reset := "read 127.0.0.1:8080: connection reset by peer"
	emfile := "connect 127.0.0.1:8080: too many open files (generator: RLIMIT_NOFILE 32 for 64 connections)"
	ok := func(p model.Probe) model.Sample {
		p.Path, p.Interval = "/plaintext", 20
		return model.Sample{Window: 10, Responses: 1000, Success: 1000, StatusCounts: map[string]int64{"200": 1000}, Probe: &p}
	}
	cases := []struct {
		name   string
		s      model.Sample
		reason string // "" = passes
	}{
		{"clean probe", ok(model.Probe{Responses: 500, Success: 500}), ""},
		{"socket errors", ok(model.Probe{Responses: 500, Success: 500, Errors: map[string]int64{"read": 2, "timeout": 1},
			Examples: map[string]string{"read": reset, "timeout": "read 127.0.0.1:8080: no complete response within 8s"}}),
			"probe: socket errors: read 2, timeout 1 (e.g. " + reset + ")"},
		{"non-200 statuses", ok(model.Probe{Responses: 500, Success: 497, Errors: map[string]int64{"status": 3},
			Examples: map[string]string{"status": `status 503 for GET /plaintext: "busy"`}}),
			`probe: 3 of 500 responses not status 200 (e.g. status 503 for GET /plaintext: "busy")`},
		{"a 204 has no example", ok(model.Probe{Responses: 500, Success: 499}), "probe: 1 of 500 responses not status 200"},
		{"generator errors", ok(model.Probe{Responses: 500, Success: 500, Errors: map[string]int64{"generator": 1}, Examples: map[string]string{"generator": emfile}}),
			"probe: generator 1 (e.g. " + emfile + ")"},
		{"no response in a window of 500 intervals", ok(model.Probe{}), "probe: no response in the window"},
		{"refused: no response either", ok(model.Probe{Errors: map[string]int64{"connect": 40}, Examples: map[string]string{"connect": "connect 127.0.0.1:8080: connection refused"}}),
			"probe: socket errors: connect 40 (e.g. connect 127.0.0.1:8080: connection refused); probe: no response in the window"},
		{"no response in a window of under two intervals", model.Sample{Window: 0.039, Responses: 1000, Success: 1000, Probe: &model.Probe{Path: "/plaintext", Interval: 20}}, ""},
		{"after the sample's own reasons", model.Sample{Window: 10, Responses: 1000, Success: 1000, SocketErrors: 1, Errors: map[string]int64{"read": 1},
			Examples: map[string]string{"read": reset}, Probe: &model.Probe{Path: "/plaintext", Interval: 20, Responses: 10, Success: 9}},
			"socket errors: read 1 (e.g. " + reset + "); probe: 1 of 10 responses not status 200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := Gate(c.s, 1, 100)
			if g.Passed != (c.reason == "") || g.Reason != c.reason {
				t.Errorf("gate %+v\nwant reason %q", g, c.reason)
			}
		})
	}
}
