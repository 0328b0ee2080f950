package load

import (
	"bytes"

	"github.com/tfbench/tfbench/harness/suite"
)

// request serializes the GET every connection sends with tfbench's fixed headers
// (Host, Accept if set, Connection: keep-alive, User-Agent suite.UserAgent; no
// Accept-Encoding; docs/design.md, "Requests"). o must be validated.
func request(o Options) []byte {
	var b bytes.Buffer
	b.WriteString("GET ")
	b.WriteString(o.Path)
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(o.Host)
	b.WriteString("\r\n")
	if o.Accept != "" {
		b.WriteString("Accept: ")
		b.WriteString(o.Accept)
		b.WriteString("\r\n")
	}
	b.WriteString("Connection: keep-alive\r\nUser-Agent: ")
	b.WriteString(suite.UserAgent)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// batch is depth copies of o's request back to back: what one pipelined write
// sends. It is built once per run and shared, read-only, by all connections.
func batch(o Options) []byte {
	return bytes.Repeat(request(o), o.Pipeline)
}
