package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	"github.com/tfbench/tfbench/frameworks/engine/runtime"
)

// chunks GETs target on a connection of its own and returns the response's
// chunks as the server wrote them (the engine flushes each chunk it
// writes: server/stream_test.go), failing the test unless the response is
// 200, text/html; charset=utf-8 and chunked.
func chunks(t *testing.T, hs *appHTTP, target string) []string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" || len(res.TransferEncoding) != 1 {
		t.Fatalf("GET %s: %d, Content-Type %q, Transfer-Encoding %v; want 200, text/html; charset=utf-8, chunked", target, res.StatusCode, res.Header.Get("Content-Type"), res.TransferEncoding)
	}
	var out []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("GET %s: chunk %d: %v", target, len(out), err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
		if err != nil {
			t.Fatalf("GET %s: chunk %d: size line %q", target, len(out), line)
		}
		if n == 0 {
			return out
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatalf("GET %s: chunk %d: %v", target, len(out), err)
		}
		out = append(out, string(b[:n]))
	}
}

// partRE is one part's table of the stream page, its rows in group 2.
var partRE = regexp.MustCompile(`^<table class="part" data-part="(\d+)"><tbody>((?:<tr [^>]*>(?:<td [^>]*>\d+</td>){2}</tr>)*)</tbody></table>$`)

// TestStream serves /stream?rows=N&parts=K (docs/ssr.md, The streamed page)
// from the real app: the shell, then each part in a chunk of its own (so
// flushed on its own) holding World ids floor(k*N/K)+1..floor((k+1)*N/K),
// then the page's end; the clamping of rows and parts; a changed row in the
// next page; one render per request.
func TestStream(t *testing.T) {
	dbPath, conn := appDB(t)
	hs := appServer(t, dbPath)
	for _, tc := range []struct {
		query string
		n, k  int
	}{
		{"rows=1000&parts=4", 1000, 4}, {"rows=10", 10, 4}, {"rows=3&parts=9", 3, 3}, {"rows=100&parts=99", 100, 16},
		{"rows=foo&parts=foo", 1, 1}, {"rows=0&parts=0", 1, 1}, {"rows=20000&parts=2", 10000, 2}, {"", 1, 1},
	} {
		target := "/stream?" + tc.query
		before := renders(t, hs)["/stream"]
		cs := chunks(t, hs, target)
		if len(cs) != tc.k+2 {
			t.Fatalf("GET %s: %d chunks, want %d (shell, %d parts, end): %.300q", target, len(cs), tc.k+2, tc.k, cs)
		}
		if shell := `<!DOCTYPE html><html><head><title>World</title></head><body><h1>World</h1>`; cs[0] != shell {
			t.Errorf("GET %s: shell %q, want %q", target, cs[0], shell)
		}
		if cs[len(cs)-1] != "</body></html>" {
			t.Errorf("GET %s: end %q, want %q", target, cs[len(cs)-1], "</body></html>")
		}
		var rows [][2]int
		for k, c := range cs[1 : tc.k+1] {
			m := partRE.FindStringSubmatch(c)
			if m == nil || m[1] != strconv.Itoa(k) {
				t.Fatalf("GET %s: chunk %d is not part %d's table: %.200q", target, k+1, k, c)
			}
			first, last := k*tc.n/tc.k+1, (k+1)*tc.n/tc.k
			for _, r := range rowRE.FindAllStringSubmatch(m[2], -1) {
				id, _ := strconv.Atoi(r[2])
				num, _ := strconv.Atoi(r[3])
				if r[1] != r[2] || id < first || id > last {
					t.Errorf("GET %s: part %d holds row data-id %s id %s, want ids %d..%d", target, k, r[1], r[2], first, last)
				}
				rows = append(rows, [2]int{id, num})
			}
		}
		wantRows(t, target, rows, tc.n, appRandom)
		if after := renders(t, hs)["/stream"]; after != before+1 {
			t.Errorf("GET %s: /stream renders %d -> %d, want one more", target, before, after)
		}
	}

	// A changed row is in the next page: nothing is cached.
	if _, err := conn.Exec("UPDATE World SET randomNumber = 4242 WHERE id = 7"); err != nil {
		t.Fatal(err)
	}
	cs := chunks(t, hs, "/stream?rows=10&parts=2")
	if !strings.Contains(cs[2], `<tr class="row" data-id="7"><td class="id">7</td><td class="num">4242</td></tr>`) {
		t.Errorf("part 1 after the update = %q, want id 7 with 4242", cs[2])
	}
}

// TestStreamNotStreamed renders /stream without a writer (as BenchmarkApp
// would), with every bundle option: the frame holds the whole page, the
// same bytes the streamed response sends.
func TestStreamNotStreamed(t *testing.T) {
	dbPath, _ := appDB(t)
	hs := appServer(t, dbPath)
	want := strings.Join(chunks(t, hs, "/stream?rows=100&parts=3"), "")
	for _, o := range []bundle.Options{{}, {RuntimeJSX: true}, {TwoBytePages: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) { testStreamNotStreamed(t, onePool(t, "../../app", o, dbPath), want) })
	}
}

func testStreamNotStreamed(t *testing.T, pool *runtime.Pool, want string) {
	route := -1
	for i, r := range pool.Routes() {
		if r.Path == "/stream" {
			route = i
			if !r.Stream {
				t.Errorf("route /stream: Stream false, want true (export const stream = true)")
			}
		} else if r.Stream {
			t.Errorf("route %s: Stream true, want false", r.Path)
		}
	}
	if route < 0 {
		t.Fatal("the app has no /stream route")
	}
	resp, err := pool.Render(context.Background(), route, &runtime.Request{Method: "GET", Path: "/stream", RawQuery: "rows=100&parts=3"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || resp.ContentType != "text/html; charset=utf-8" || resp.Body != want {
		t.Errorf("render without a writer = %d %q %.200q..., want 200 text/html; charset=utf-8 and the streamed page %.200q...", resp.Status, resp.ContentType, resp.Body, want)
	}
}
