package load

import (
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestRequestBytes(t *testing.T) {
	o := Options{Addr: "127.0.0.1:8080", Path: "/queries?queries=20", Accept: model.Queries.Accept(),
		Connections: 1, Pipeline: 3, Duration: 1, Timeout: 1e9}
	cfg, err := o.validate()
	if err != nil {
		t.Fatal(err)
	}
	want := "GET /queries?queries=20 HTTP/1.1\r\n" +
		"Host: 127.0.0.1:8080\r\n" +
		"Accept: application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7\r\n" +
		"Connection: keep-alive\r\n" +
		"User-Agent: tfbench/1\r\n\r\n"
	if got := string(request(cfg.Options)); got != want {
		t.Errorf("request:\n%q\nwant\n%q", got, want)
	}
	if got := string(batch(cfg.Options)); got != strings.Repeat(want, 3) {
		t.Errorf("batch of depth 3:\n%q\nwant the request 3 times", got)
	}

	o.Accept, o.Host = "", "bench.example"
	want = "GET /queries?queries=20 HTTP/1.1\r\nHost: bench.example\r\nConnection: keep-alive\r\nUser-Agent: tfbench/1\r\n\r\n"
	if got := string(request(o)); got != want {
		t.Errorf("request without Accept, with Host:\n%q\nwant\n%q", got, want)
	}
}
