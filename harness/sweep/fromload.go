package sweep

import (
	"fmt"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
)

// FromResult turns a load result into the model.Sample with key k: counts, RPS
// (requests/s), errors, probe, and latency and TTFB histograms (µs, summarised in
// ms, V2-compressed). Server cost, generator health and the gate are the caller's.
func FromResult(k model.Key, r *load.Result) (model.Sample, error) {
	s := model.Sample{
		Key: k, Window: r.Window.Seconds(), Responses: r.Responses, Success: r.Success,
		RPS: r.RPS(), SocketErrors: r.SocketErrors(), Checked: r.Checked, CheckSeed: r.CheckSeed, BodyBytes: r.BodyBytes,
		StatusCounts: map[string]int64{}, Errors: map[string]int64{}, Examples: map[string]string{},
	}
	for code, c := range r.StatusCounts {
		s.StatusCounts[strconv.Itoa(code)] = c
	}
	for class, c := range r.Errors {
		s.Errors[string(class)] = c
	}
	for class, e := range r.Examples {
		s.Examples[string(class)] = e
	}
	var err error
	if r.Latency != nil {
		s.Latency = model.LatencyOf(r.Latency)
		if s.Histogram, err = r.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err != nil {
			return s, fmt.Errorf("encode the latency histogram: %w", err)
		}
	}
	if r.Uncorrected != nil {
		u := model.LatencyOf(r.Uncorrected)
		s.Uncorrected = &u
		if s.UncorrectedHistogram, err = r.Uncorrected.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err != nil {
			return s, fmt.Errorf("encode the uncorrected latency histogram: %w", err)
		}
	}
	if r.TTFB != nil {
		t := model.LatencyOf(r.TTFB)
		s.TTFB = &t
		if s.TTFBHistogram, err = r.TTFB.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err != nil {
			return s, fmt.Errorf("encode the TTFB histogram: %w", err)
		}
	}
	if r.Probe != nil {
		if s.Probe, err = fromProbe(r.Probe); err != nil {
			return s, err
		}
	}
	return s, nil
}

// fromProbe turns the probe's Result (load.Result.Probe) into a Probe: its
// path and interval (ms), counts, errors and examples by class name, and
// its latency summarised in ms and encoded as Sample.Histogram is.
func fromProbe(r *load.Result) (*model.Probe, error) {
	p := &model.Probe{Responses: r.Responses, Success: r.Success}
	if q := r.ProbeSpec; q != nil {
		p.Path, p.Interval = q.Path, float64(q.Interval)/float64(time.Millisecond)
	}
	if len(r.Errors) > 0 {
		p.Errors, p.Examples = map[string]int64{}, map[string]string{}
		for class, c := range r.Errors {
			p.Errors[string(class)] = c
		}
		for class, e := range r.Examples {
			p.Examples[string(class)] = e
		}
	}
	if r.Latency != nil {
		p.Latency = model.LatencyOf(r.Latency)
		var err error
		if p.Histogram, err = r.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase); err != nil {
			return p, fmt.Errorf("encode the probe's latency histogram: %w", err)
		}
	}
	return p, nil
}
