package load

import (
	"context"
	"testing"
	"time"
)

func TestOptionsValidate(t *testing.T) {
	good := Options{Addr: "127.0.0.1:8080", Path: "/json", Connections: 2, Duration: time.Second, Timeout: time.Second}
	cfg, err := good.validate()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "127.0.0.1:8080" || cfg.Pipeline != 1 || cfg.maxMicros != 1_000_000 {
		t.Errorf("defaults: Host %q, Pipeline %d, maxMicros %d; want Addr, 1, 1000000", cfg.Host, cfg.Pipeline, cfg.maxMicros)
	}
	cases := []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Addr = "127.0.0.1" }, `load: options: Addr "127.0.0.1" is not host:port`},
		{func(o *Options) { o.Addr = "" }, `load: options: Addr "" is not host:port`},
		{func(o *Options) { o.Host = "a\r\nX: y" }, `load: options: Host "a\r\nX: y" contains CR or LF`},
		{func(o *Options) { o.Accept = "a\n" }, `load: options: Accept "a\n" contains CR or LF`},
		{func(o *Options) { o.Path = "json" }, `load: options: Path "json" does not start with /`},
		{func(o *Options) { o.Path = "/a b" }, `load: options: Path "/a b" contains white space`},
		{func(o *Options) { o.Connections = 0 }, "load: options: Connections is 0, want >= 1"},
		{func(o *Options) { o.Pipeline = -1 }, "load: options: Pipeline is -1, want >= 1"},
		{func(o *Options) { o.Duration = 0 }, "load: options: Duration is 0s, want > 0"},
		{func(o *Options) { o.Timeout = time.Microsecond }, "load: options: Timeout is 1µs, want >= 1ms"},
		{func(o *Options) { o.MaxCheckBytes = -1 }, "load: options: MaxCheckBytes is -1, want >= 0 (0: 1 MiB)"},
		{func(o *Options) { o.Responses = -1 }, "load: options: Responses is -1, want >= 0 (0: the window is Duration)"},
		{func(o *Options) { o.MinDuration = -time.Millisecond }, "load: options: MinDuration is -1ms, want 0 to Duration (1s)"},
		{func(o *Options) { o.Responses, o.MinDuration = 100, 2*time.Second }, "load: options: MinDuration is 2s, want 0 to Duration (1s)"},
		{func(o *Options) { o.Responses, o.Rate = 100, 500 }, "load: options: Responses is 100 with Rate 500 requests/s, want 0 (a constant-rate window is its Duration)"},
		{func(o *Options) { o.Warmup = -time.Millisecond }, "load: options: Warmup is -1ms, want >= 0 (0: the window opens as the first requests go)"},
		{func(o *Options) { o.Warmup, o.Rate = time.Second, 500 }, "load: options: Warmup is 1s with Rate 500 requests/s, want 0 (a constant-rate window opens on its schedule)"},
		{func(o *Options) { o.OnWindow, o.Rate = func() {}, 500 }, "load: options: OnWindow is set with Rate 500 requests/s, want nil (closed loop only)"},
		{func(o *Options) { o.Probe = &Probe{Path: "plaintext", Interval: 20 * time.Millisecond} }, `load: options: Probe.Path "plaintext" does not start with /`},
		{func(o *Options) { o.Probe = &Probe{Path: "/a b", Interval: 20 * time.Millisecond} }, `load: options: Probe.Path "/a b" contains white space`},
		{func(o *Options) { o.Probe = &Probe{Path: "/a\r\n", Interval: 20 * time.Millisecond} }, `load: options: Probe.Path "/a\r\n" contains CR or LF`},
		{func(o *Options) { o.Probe = &Probe{Path: "/plaintext", Interval: 500 * time.Microsecond} }, "load: options: Probe.Interval is 500µs, want >= 1ms"},
	}
	for _, c := range cases {
		o := good
		c.change(&o)
		if _, err := Run(context.Background(), o); err == nil || err.Error() != c.want {
			t.Errorf("Run: error %v, want %q", err, c.want)
		}
	}
}
