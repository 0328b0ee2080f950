package load

import (
	"bufio"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// extraServer answers every request with helloJSON and, after every
// extraEvery-th request of a connection, writes one more response nobody
// asked for, in the same write. It returns the server's address.
func extraServer(t *testing.T, extraEvery int) string {
	t.Helper()
	resp := "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n" + helloJSON
	return acceptEach(t, func(c net.Conn, _ *sync.WaitGroup) {
		defer c.Close()
		r := bufio.NewReader(c)
		for n := 1; ; n++ {
			for { // one request: lines up to the empty one
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == "\r\n" {
					break
				}
			}
			out := resp
			if n%extraEvery == 0 {
				out += resp
			}
			if _, err := c.Write([]byte(out)); err != nil {
				return
			}
		}
	})
}

// A response nobody asked for is a read error naming it, not a counted
// response, in closed-loop mode (at depths 1 and 4) and at a Rate.
func TestRunUnrequestedResponse(t *testing.T) {
	addr := extraServer(t, 5)
	for _, c := range []struct {
		name     string
		pipeline int
		rate     float64
	}{{"closed loop", 1, 0}, {"depth 4", 4, 0}, {"rate", 1, 200}} {
		r := run(t, Options{Addr: addr, Path: "/json", Connections: 2, Pipeline: c.pipeline, Rate: c.rate,
			Duration: 300 * time.Millisecond, Timeout: time.Second, Check: checkHello})
		onlyClasses(t, r, Read)
		if r.Errors[Read] == 0 || r.Responses == 0 || r.Checked != r.Responses {
			t.Errorf("%s: %d read errors, %d responses, %d checked; want > 0, > 0, all", c.name, r.Errors[Read], r.Responses, r.Checked)
		}
		// One unrequested response is 109 bytes; a read may bring it with
		// responses the server wrote after it (a pipelined connection on a
		// busy machine): a whole number of them.
		want := regexp.MustCompile(`^read ` + regexp.QuoteMeta(addr) + `: (\d+) bytes after the last requested response \(an unrequested response\): "HTTP/1\.1 200 OK\\r\\nServer: x\\r\\nContent-Type: application/json\\r\\nCont"$`)
		m := want.FindStringSubmatch(r.Examples[Read])
		if n, _ := strconv.Atoi(append(m, "", "")[1]); m == nil || n == 0 || n%109 != 0 {
			t.Errorf("%s: example %q, want a match for %s with a multiple of 109 bytes", c.name, r.Examples[Read], want)
		}
		// Each error closes its connection after 5 requests: about one per
		// 5 responses, never more errors than responses.
		if r.Errors[Read] > r.Responses || !strings.Contains(r.Examples[Read], "unrequested") {
			t.Errorf("%s: %d read errors for %d responses", c.name, r.Errors[Read], r.Responses)
		}
	}
}
