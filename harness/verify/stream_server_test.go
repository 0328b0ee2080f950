package verify

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// streamServer serves /stream?rows=N&parts=K over a copy of the test
// dataset, as the contract says (one query per part), or breaks it by mode:
// "buffered" renders the whole page and sends it in one write (valid, one
// flush), "miss" drops part 1's last row, "repeat" sends part 0 again in
// place of part 1, "cached" renders each page once. gap is a wait before
// each part (a slow data source; the adapters never sleep).
type streamServer struct {
	srv    *httptest.Server
	dbPath string
	mode   string
	gap    time.Duration
	mu     sync.Mutex
	db     *sql.DB
	cache  map[string][]string
	paths  []string
}

func startStreamServer(t *testing.T, mode string, gap time.Duration) *streamServer {
	t.Helper()
	s := &streamServer{dbPath: copyDataset(t), mode: mode, gap: gap, cache: map[string][]string{}}
	// The adapters' connection settings (dataset.Open), on a *sql.DB the
	// stand-in server queries itself.
	db, err := sql.Open("sqlite", s.dbPath+"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	s.db = db
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() { s.srv.Close(); db.Close() })
	return s
}

// pieces renders the shell and each part of the page for the raw query
// values, each part read by its own query.
func (s *streamServer) pieces(rq, kq string) ([]string, error) {
	n := ExpectedPageRows(paramInt(rq, 1))
	k := ExpectedStreamParts(paramInt(kq, suite.DefaultParts), n)
	out := []string{streamShell(k)}
	for p := range k {
		lo, hi := partRange(p, n, k)
		rs, err := s.db.Query("SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id", lo, hi)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		fmt.Fprintf(&b, `<table class="part" data-part="%d"><tbody>`, p)
		for rs.Next() {
			var id, num int
			if err := rs.Scan(&id, &num); err != nil {
				rs.Close()
				return nil, err
			}
			if s.mode == "miss" && p == 1 && id == hi {
				continue
			}
			fmt.Fprintf(&b, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, num)
		}
		rs.Close()
		b.WriteString("</tbody></table>")
		out = append(out, b.String())
	}
	if s.mode == "repeat" && len(out) > 2 {
		out[2] = out[1]
	}
	out[len(out)-1] += "</body></html>"
	return out, nil
}

func (s *streamServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.URL.RequestURI())
	s.mu.Unlock()
	if r.URL.Path != "/stream" {
		http.NotFound(w, r)
		return
	}
	rq, kq := r.URL.Query().Get("rows"), r.URL.Query().Get("parts")
	s.mu.Lock()
	pieces, ok := s.cache[rq+"/"+kq]
	s.mu.Unlock()
	if !ok || s.mode != "cached" {
		var err error
		if pieces, err = s.pieces(rq, kq); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		s.mu.Lock()
		s.cache[rq+"/"+kq] = pieces
		s.mu.Unlock()
	}
	w.Header().Set("Server", "stream-fixture")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if s.mode == "buffered" {
		// The whole page in one chunk and one write, on a connection it
		// then closes: what a server that buffers the stream sends.
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer conn.Close()
		page := strings.Join(pieces, "")
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nServer: stream-fixture\r\nDate: %s\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
			time.Now().UTC().Format(http.TimeFormat), len(page), page)
		buf.Flush()
		return
	}
	for i, p := range pieces {
		if i > 0 && s.gap > 0 {
			time.Sleep(s.gap)
		}
		w.Write([]byte(p))
		w.(http.Flusher).Flush()
	}
}

func (s *streamServer) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.paths)
}

// verifyStream runs the stream check of sizes rows in 4 parts against a
// fixture server in mode.
func verifyStream(t *testing.T, mode string, rows []int) (Result, *streamServer) {
	t.Helper()
	s := startStreamServer(t, mode, 0)
	checks := []Check{{Name: "s", Type: model.Stream, Path: "/stream?rows={n}&parts={k}", Rows: rows, Parts: 4}}
	r := run(context.Background(), Target{BaseURL: s.srv.URL, DatabasePath: s.dbPath}, checks, 1100*time.Millisecond)["s"]
	return r, s
}

// TestStreamVerifyReference: a server that keeps the contract passes; the
// sizes, the clamping cases, the anti-caching page and the Date re-check are
// asked in that order. A buffered page is a valid page: it passes too (it is
// judged "not streamed" under load, TestStreamNotStreamed).
func TestStreamVerifyReference(t *testing.T) {
	for _, mode := range []string{"", "buffered"} {
		r, s := verifyStream(t, mode, []int{100, 10})
		if r.Status != model.Pass || len(r.Reasons) > 0 {
			t.Errorf("mode %q: %s %q, want pass", mode, r.Status, r.Reasons)
		}
		want := []string{"/stream?rows=100&parts=4", "/stream?rows=10&parts=4", "/stream?rows=0&parts=4", "/stream?rows=foo&parts=4", "/stream?rows=10001&parts=4",
			"/stream?rows=100&parts=foo", "/stream?rows=100&parts=0", "/stream?rows=100&parts=17", "/stream?rows=3&parts=4", "/stream?rows=10&parts=4", "/stream?rows=100&parts=4"}
		if got := s.requested(); !slices.Equal(got, want) {
			t.Errorf("mode %q: requests\n%q\nwant\n%q", mode, got, want)
		}
	}
}

// TestStreamVerifyFaults: a part that misses a row, a repeated part and a
// cached page fail with reasons naming the part and the row.
func TestStreamVerifyFaults(t *testing.T) {
	for _, tc := range []struct{ mode, want string }{
		{"miss", "GET /stream?rows=100&parts=4: part 1: 24 rows, want 25 (ids 26..50)"},
		{"repeat", "GET /stream?rows=100&parts=4: part 0: 2 tables, want 1 (want parts 0..3, each once)"},
		{"repeat", "GET /stream?rows=100&parts=4: part 1 missing: rows 26..50 not sent (want parts 0..3, each once)"},
		{"cached", "GET /stream?rows=10&parts=4: row 3: randomNumber"},
	} {
		r, _ := verifyStream(t, tc.mode, []int{100, 10})
		found := false
		for _, reason := range r.Reasons {
			found = found || strings.HasPrefix(reason, tc.want)
		}
		if r.Status != model.Fail || !found {
			t.Errorf("mode %s: %s %q, want fail with %q", tc.mode, r.Status, r.Reasons, tc.want)
		}
	}
}

// loadStream runs the load generator at a constant rate against a fixture
// server with the stream check, and returns its result and the recorder's
// record.
func loadStream(t *testing.T, s *streamServer, rows, parts int, rate float64) (*load.Result, *model.StreamRecord) {
	t.Helper()
	world, err := ReadWorld(context.Background(), s.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewStreamRecorder(parts, (5 * time.Second).Microseconds())
	chk := StreamChecker(world, rows, parts, rec)
	o := load.Options{Addr: strings.TrimPrefix(s.srv.URL, "http://"), Path: fmt.Sprintf("/stream?rows=%d&parts=%d", rows, parts),
		Accept: model.Stream.Accept(), Connections: 1, Rate: rate, Duration: time.Second, Timeout: 5 * time.Second, MaxCheckBytes: 16 << 20,
		Check:         func(int, []byte, []byte) error { return nil },
		CheckTimeline: func(st int, h, b []byte, tl load.Timeline) error { return chk(st, h, b, tl.First, tl.Last, tl.Flushes) },
	}
	res, err := load.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rec.Record()
	if err != nil {
		t.Fatal(err)
	}
	return res, got
}

// TestStreamNotStreamed: at a low rate, a server that sends the whole page
// in one flush is "not streamed" with the reason, its responses not failed;
// one that flushes each part after a 30 ms wait is streamed, each part
// arriving at least 30 ms after the one before (the server's waits,
// whatever the machine).
func TestStreamNotStreamed(t *testing.T) {
	if raceEnabled {
		t.Skip("times flushes to milliseconds, which the race detector stretches")
	}
	res, got := loadStream(t, startStreamServer(t, "buffered", 0), 10, 4, 10)
	if res.Responses == 0 || res.Checked != res.Responses || len(res.Errors) > 0 || got == nil {
		t.Fatalf("buffered: %d responses, %d checked, errors %v %v; record %+v", res.Responses, res.Checked, res.Errors, res.Examples, got)
	}
	if got.Streamed || got.Reason != NotStreamed(res.Responses) || got.OneFlush != res.Responses || got.Flushes != 1 {
		t.Errorf("buffered: streamed %v, reason %q, %d in one flush, %.1f flushes per response; want not streamed, %q", got.Streamed, got.Reason, got.OneFlush, got.Flushes, NotStreamed(res.Responses))
	}
	if want := fmt.Sprintf("not streamed: the whole page arrived in one flush (%d of %d responses)", res.Responses, res.Responses); got.Reason != want {
		t.Errorf("reason %q, want %q", got.Reason, want)
	}

	res, got = loadStream(t, startStreamServer(t, "", 30*time.Millisecond), 100, 4, 4)
	if res.Responses == 0 || res.Checked != res.Responses || len(res.Errors) > 0 || got == nil {
		t.Fatalf("streamed: %d responses, %d checked, errors %v %v; record %+v", res.Responses, res.Checked, res.Errors, res.Examples, got)
	}
	t.Logf("streamed: shell p50 %.3f ms, parts %+v, last p50 %.3f ms, %.1f flushes", got.Shell.P50, got.Part, got.Last.P50, got.Flushes)
	if !got.Streamed || got.Reason != "" || len(got.Part) != 4 || got.Flushes < 2 {
		t.Fatalf("streamed: %v %q, %d parts, %.1f flushes; want streamed, 4 parts, >= 2 flushes", got.Streamed, got.Reason, len(got.Part), got.Flushes)
	}
	prev := got.Shell.P50
	for k, p := range got.Part {
		if p.P50 < prev+29 || p.P99 < p.P50 {
			t.Errorf("part %d arrival p50 %.3f ms, p99 %.3f ms; want >= %.3f ms (29 ms after the shell or the part before)", k, p.P50, p.P99, prev+29)
		}
		prev = p.P50
	}
	if got.Last.P50 < prev || got.BytesPerFlush <= 0 {
		t.Errorf("last byte p50 %.3f ms before the last part's %.3f, or %.1f bytes per flush", got.Last.P50, prev, got.BytesPerFlush)
	}
}

// TestStreamCheckUnderLoad: under load a page missing a row fails its check
// with the part and row named; none is recorded.
func TestStreamCheckUnderLoad(t *testing.T) {
	res, got := loadStream(t, startStreamServer(t, "miss", 0), 100, 4, 10)
	ex := res.Examples[load.Check]
	if res.Errors[load.Check] != res.Responses || res.Responses == 0 || got != nil || !strings.Contains(ex, "part 1: 24 rows, want 25 (ids 26..50)") {
		t.Errorf("%d responses, %d check errors (%q), record %+v; want every response failed naming part 1, nothing recorded", res.Responses, res.Errors[load.Check], ex, got)
	}
}
