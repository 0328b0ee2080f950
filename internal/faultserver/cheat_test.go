package faultserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/verify"
)

// testData is one dataset (dataset.Generate) for the package's tests, made
// on first use, and its World values; tests only read it.
var testData struct {
	once  sync.Once
	path  string
	world verify.World
	err   error
}

// datasetPath returns the shared dataset's path and World.
func datasetPath(t *testing.T) (string, verify.World) {
	t.Helper()
	testData.once.Do(func() {
		dir, err := os.MkdirTemp("", "faultserver-dataset-")
		if err != nil {
			testData.err = err
			return
		}
		testData.path = filepath.Join(dir, "tfbench.db")
		if testData.err = dataset.Generate(testData.path); testData.err != nil {
			return
		}
		for i, n := range dataset.RandomNumbers() {
			if n < 1 || n > worldRows || i >= worldRows {
				testData.err = fmt.Errorf("World row %d: %d", i+1, n)
				return
			}
			testData.world = append(testData.world, int64(n))
		}
	})
	if testData.err != nil {
		t.Fatal(testData.err)
	}
	return testData.path, testData.world
}

// removeTestData removes the shared dataset's folder (TestMain, after the
// tests).
func removeTestData() {
	if testData.path != "" {
		os.RemoveAll(filepath.Dir(testData.path))
	}
}

// judge says whether the answer to path is right ("" if so) or why not,
// by verification's rules and, for /db, the row's value in world.
func judge(world verify.World, path string, resp *http.Response, body string) string {
	var check func(int, []byte, []byte) error
	switch {
	case path == "/json":
		check = verify.Checker(model.JSON, 0)
	case path == "/plaintext":
		check = verify.Checker(model.Plaintext, 0)
	case path == "/fortunes":
		check = verify.Checker(model.Fortunes, 0)
	case strings.HasPrefix(path, PagePath+"?rows="):
		n, _ := strconv.Atoi(strings.TrimPrefix(path, PagePath+"?rows=")) // not a number: 0, so 1 row
		check = verify.PageChecker(world, verify.ExpectedPageRows(n))
	case path == "/db":
		check = func(status int, h, b []byte) error {
			if err := verify.Checker(model.DB, 0)(status, h, b); err != nil {
				return err
			}
			var row struct{ ID, RandomNumber int64 }
			if err := json.Unmarshal(b, &row); err != nil {
				return err
			}
			if want := world[row.ID-1]; row.RandomNumber != want {
				return fmt.Errorf("World row %d: randomNumber %d, want %d", row.ID, row.RandomNumber, want)
			}
			return nil
		}
	default:
		panic(path)
	}
	var head bytes.Buffer
	if err := resp.Header.Write(&head); err != nil {
		return err.Error()
	}
	if err := check(resp.StatusCode, head.Bytes(), []byte(body)); err != nil {
		return err.Error()
	}
	return ""
}

// pipelined sends n GETs of path on c at once and returns the responses.
func pipelined(t *testing.T, c io.ReadWriter, br *bufio.Reader, path string, n int) (resps []*http.Response, bodies []string) {
	t.Helper()
	if _, err := io.WriteString(c, strings.Repeat("GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", n)); err != nil {
		t.Fatal(err)
	}
	for range n {
		resp, body := response(t, br, path)
		resps, bodies = append(resps, resp), append(bodies, body)
	}
	return resps, bodies
}

// The cheat modes with After 2, 102 requests of their path on one
// connection: right at positions 1 and 2 (After) and 101, wrong at every
// other, the wrong answer each mode's (the same headers, the json body the
// same length). A second connection: right at its position 1, wrong at 2;
// a path the mode does not cheat on is right. Mode ok is right everywhere.
// Not parallel: its 500 pipelined answers would slow the parallel tests,
// whose connections give up after 1 s.
func TestCheatModes(t *testing.T) {
	db, world := datasetPath(t)
	for _, tc := range []struct {
		mode  Mode
		path  string
		wrong func(resp *http.Response, body string) string // "" if body is the mode's wrong answer
		other string
	}{
		{ModeCheatJSON, "/json", func(_ *http.Response, body string) string {
			if body != CheatJSONBody || len(body) != len(JSONBody) {
				return fmt.Sprintf("body %q, want %q", body, CheatJSONBody)
			}
			return ""
		}, "/plaintext"},
		{ModeCheatDB, "/db", func(_ *http.Response, body string) string {
			var row struct{ ID, RandomNumber int64 }
			if err := json.Unmarshal([]byte(body), &row); err != nil || row.ID < 1 || row.ID > worldRows ||
				row.RandomNumber != world[row.ID-1]%worldRows+1 {
				return fmt.Sprintf("body %q (%v), want a row's id with its randomNumber's successor", body, err)
			}
			return ""
		}, "/json"},
		{ModeCheatFortunes, "/fortunes", func(_ *http.Response, body string) string {
			if strings.Contains(body, ExtraFortune) || strings.Count(body, "<tr>") != 13 {
				return fmt.Sprintf("%d table rows (%t the extra fortune), want 12 and the header, without it", strings.Count(body, "<tr>")-1, strings.Contains(body, ExtraFortune))
			}
			return ""
		}, "/json"},
		{ModeCheatPage, PagePath + "?rows=20", func(resp *http.Response, body string) string {
			if judge(world, PagePath+"?rows=10", resp, body) != "" {
				return "not the page of rows 1..10: " + judge(world, PagePath+"?rows=10", resp, body)
			}
			return ""
		}, "/fortunes"},
		{ModeOK, PagePath + "?rows=7", nil, "/db"},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			s := start(t, Config{Mode: tc.mode, After: 2, Database: db})
			c := dial(t, s.Addr())
			c.SetDeadline(time.Now().Add(10 * time.Second)) // 102 pages, maybe under -race
			br := bufio.NewReader(c)
			resps, bodies := pipelined(t, c, br, tc.path, 102)
			c2 := dial(t, s.Addr())
			br2 := bufio.NewReader(c2)
			r2, b2 := pipelined(t, c2, br2, tc.path, 2)
			ro, bo := pipelined(t, c2, br2, tc.other, 1)
			type answer struct {
				what  string
				resp  *http.Response
				body  string
				right bool
			}
			var all []answer
			for i := range resps {
				pos := i + 1
				all = append(all, answer{fmt.Sprintf("connection 1 position %d", pos), resps[i], bodies[i], tc.wrong == nil || pos <= 2 || pos == 101})
			}
			all = append(all, answer{"connection 2 position 1", r2[0], b2[0], true},
				answer{"connection 2 position 2", r2[1], b2[1], tc.wrong == nil},
				answer{"connection 2 position 3 (" + tc.other + ")", ro[0], bo[0], true})
			for _, a := range all {
				path := tc.path
				if strings.Contains(a.what, "(") {
					path = tc.other
				}
				got := judge(world, path, a.resp, a.body)
				switch {
				case a.right && got != "":
					t.Errorf("%s: wrong answer, want right: %s", a.what, got)
				case !a.right && got == "":
					t.Errorf("%s: right answer, want the cheat", a.what)
				case !a.right:
					if why := tc.wrong(a.resp, a.body); why != "" {
						t.Errorf("%s: %s", a.what, why)
					}
				}
				if ct := a.resp.Header.Get("Content-Type"); a.resp.StatusCode != 200 || a.resp.Header.Get("Server") != ServerName ||
					a.resp.Header.Get("Date") == "" || a.resp.ContentLength != int64(len(a.body)) || ct == "" {
					t.Errorf("%s: status %d, headers %v", a.what, a.resp.StatusCode, a.resp.Header)
				}
			}
			if n := s.Served(); n != 105 {
				t.Errorf("Served %d, want 105", n)
			}
		})
	}
}

// The database paths without a database answer 500 naming DATABASE_PATH;
// an unreadable one names its error.
func TestNoDatabase(t *testing.T) {
	t.Parallel()
	none := filepath.Join(t.TempDir(), "none.db")
	for _, tc := range []struct {
		s    *Server
		want string
	}{
		{start(t, Config{}), "faultserver: GET /db: no database (DATABASE_PATH is not set)"},
		{start(t, Config{Database: none}), "faultserver: GET /db: stat " + none + ": no such file or directory"},
	} {
		c := dial(t, tc.s.Addr())
		send(t, c, "/db")
		resp, body := response(t, bufio.NewReader(c), "/db")
		wantAnswer(t, resp, body, 500, "text/plain", tc.want)
	}
}

// extra-response: every answer right; from request After+1 on, each
// connection's 50th and 100th requests are answered twice, the second copy
// arriving unrequested (already buffered once the first is read); the
// answers after the first extra (the connection served by hand) have the
// same headers. With After 60, connection 1's 50 requests (1..50 in all)
// get no extra; connection 2's (51..100) do at its 50th. Not parallel, as
// TestCheatModes.
func TestExtraResponse(t *testing.T) {
	for _, tc := range []struct {
		after    int64
		requests [2]int   // on connections 1 and 2, one after the other
		extras   [2][]int // positions answered twice on each
	}{
		{0, [2]int{101, 50}, [2][]int{{50, 100}, {50}}},
		{60, [2]int{50, 50}, [2][]int{nil, {50}}},
	} {
		s := start(t, Config{Mode: ModeExtraResponse, After: tc.after})
		for ci, n := range tc.requests {
			c := dial(t, s.Addr())
			c.SetDeadline(time.Now().Add(10 * time.Second)) // 101 requests, maybe under -race
			br := bufio.NewReader(c)
			var extras []int
			for pos := 1; pos <= n; pos++ {
				path := "/json"
				if pos%7 == 0 {
					path = "/plaintext"
				}
				send(t, c, path)
				body, ctype, _ := correct(path)
				resp, got := response(t, br, path)
				wantAnswer(t, resp, got, 200, ctype, body)
				if br.Buffered() == 0 {
					continue
				}
				extras = append(extras, pos)
				resp, got = response(t, br, path+" (extra)")
				wantAnswer(t, resp, got, 200, ctype, body)
				if br.Buffered() != 0 {
					t.Fatalf("after %d: %d more bytes buffered", pos, br.Buffered())
				}
			}
			if fmt.Sprint(extras) != fmt.Sprint(tc.extras[ci]) {
				t.Errorf("after %d, connection %d: extra responses after requests %v, want %v", tc.after, ci+1, extras, tc.extras[ci])
			}
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			if b, err := br.Peek(1); len(b) != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("after %d, connection %d: then %q, %v; want nothing", tc.after, ci+1, b, err)
			}
		}
	}
}

// Environ and ConfigFromEnv carry Database as DATABASE_PATH.
func TestCheatEnviron(t *testing.T) {
	environRoundTrip(t, Config{Mode: ModeCheatPage, After: 100, Database: "/tmp/x/tfbench.db"},
		"[TFBENCH_FAULT_SERVER=1 FAULT_MODE=cheat-page FAULT_AFTER=100 DATABASE_PATH=/tmp/x/tfbench.db]")
}
