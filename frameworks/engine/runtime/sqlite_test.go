package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	d := &db{}
	for _, tc := range []struct {
		in      string
		want    []any
		wantErr string
	}{
		{"", nil, ""},
		{"[]", nil, ""}, // no params
		{"[4174]", []any{int64(4174)}, ""},
		{"[0,-12,999999999999999]", []any{int64(0), int64(-12), int64(999999999999999)}, ""},
		// Not the integer fast path: encoding/json decides.
		{"[1.5]", []any{1.5}, ""},
		{"[ 7 ]", []any{float64(7)}, ""},
		{"[9007199254740993]", []any{float64(9007199254740992)}, ""}, // 16 digits: a JS number, rounded
		{`[1,"a",null,true]`, []any{float64(1), "a", nil, true}, ""},
		{"[01]", nil, `sqlite "S": params "[01]": want a JSON array: invalid character '1' after array element`},
		{"[1,]", nil, `sqlite "S": params "[1,]": want a JSON array: invalid character ']' looking for beginning of value`},
		{"[1]x", nil, `sqlite "S": params "[1]x": want a JSON array: invalid character 'x' after top-level value`},
		{"[-]", nil, `sqlite "S": params "[-]": want a JSON array: invalid character ']' in numeric literal`},
	} {
		got, err := d.parseParams("S", tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("parseParams(%q) error = %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseParams(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseParamsList(t *testing.T) {
	d := &db{}
	for _, tc := range []struct {
		in   string
		want [][]any
	}{
		{"[]", nil},
		{"[[1],[22,-3],[]]", [][]any{{int64(1)}, {int64(22), int64(-3)}, {}}},
		{"[[1],[2.5]]", [][]any{{float64(1)}, {2.5}}},
		{`[[1],["x"]]`, [][]any{{float64(1)}, {"x"}}},
	} {
		got, err := d.parseParamsList("S", tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseParamsList(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	// 40 lists through the fast path: each list keeps its own values even
	// though the flat buffer grew (and moved) while scanning.
	in, want := "[", [][]any{}
	for i := range 40 {
		if i > 0 {
			in += ","
		}
		in += "[" + string(rune('1'+i%9)) + "," + string(rune('1'+i%9)) + "]"
		want = append(want, []any{int64(1 + i%9), int64(1 + i%9)})
	}
	got, err := d.parseParamsList("S", in+"]")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("40 lists: %v, %v", got, err)
	}
	if _, err := d.parseParamsList("S", "[[1],2]"); err == nil || err.Error() != `sqlite "S": params list "[[1],2]": want a JSON array of arrays: json: cannot unmarshal number into Go value of type []interface {}` {
		t.Errorf("[[1],2] error = %v", err)
	}
}

// openFixture opens a fixtureDB through openDB.
func openFixture(t *testing.T) *db {
	t.Helper()
	d, err := openDB(fixtureDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// call is one host call on a db and its JSON result (or error).
type call struct {
	fn, sql, params string
	want            string
}

func runCalls(t *testing.T, d *db, calls []call) {
	t.Helper()
	for _, c := range calls {
		var got string
		var err error
		switch c.fn {
		case "all":
			got, err = d.all(c.sql, c.params)
		case "get":
			got, err = d.get(c.sql, c.params)
		case "batch":
			got, err = d.batch(c.sql, c.params)
		case "run":
			var n int
			n, err = d.run(c.sql, c.params)
			got = strconv.Itoa(n)
		case "tx":
			var n int
			n, err = d.tx(c.sql, c.params)
			got = strconv.Itoa(n)
		}
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != c.want {
			t.Errorf("%s(%.200q, %.200q)\n got %.300s\nwant %.300s", c.fn, c.sql, c.params, got, c.want)
		}
	}
}

func TestDBValues(t *testing.T) {
	d := openFixture(t)
	runCalls(t, d, []call{
		// Every connection sets the two pragmas.
		{"get", "PRAGMA busy_timeout", "", `{"timeout":5000}`},
		{"get", "PRAGMA synchronous", "", `{"synchronous":1}`},
		{"all", `SELECT 1 AS i, -9007199254740993 AS big, 1.5 AS f, 1e300*1e300 AS inf, 'a"b\c' || char(10, 1) AS t, NULL AS n, x'68c3a9ff' AS b, 'フ' AS "k""q"`, "",
			`[["i","big","f","inf","t","n","b","k\"q"],1,-9007199254740993,1.5,null,"a\"b\\c\n\u0001",null,"h\u00e9\ufffd","\u30d5"]`},
		// Params: integers (also integral floats) bind as INTEGER, other
		// numbers as REAL; booleans as 1 and 0.
		{"get", "SELECT ? AS a, typeof(?) AS b, ? AS c, ? AS d, ? AS e, ? AS f", `[7,2.0,2.5,"x",true,null]`, `{"a":7,"b":"integer","c":2.5,"d":"x","e":1,"f":null}`},
		{"get", "SELECT id FROM World WHERE id = ?", "[1000]", "null"},
		{"all", "SELECT id FROM World WHERE id > ?", "[1000]", `[["id"]]`},
		{"all", "SELECT id FROM World WHERE id > ? ORDER BY id", "[97]", `[["id"],98,99,100]`},
		// get and batch on a statement without result columns: its changes
		// (the first time and from the cache).
		{"get", "UPDATE World SET randomNumber = randomNumber WHERE id <= ?", "[4]", "4"},
		{"get", "UPDATE World SET randomNumber = randomNumber WHERE id <= ?", "[2]", "2"},
		{"batch", "UPDATE World SET randomNumber = randomNumber WHERE id <= ?", "[[3],[0],[5]]", "[3,0,5]"},
		{"batch", "SELECT randomNumber AS r FROM World WHERE id = ?", "[[1],[1000],[2]]", fmt.Sprintf(`[{"r":%d},null,{"r":%d}]`, worldRandom(1), worldRandom(2))},
		{"run", "UPDATE World SET randomNumber = randomNumber WHERE id <= ?", "[6]", "6"},
		{"run", "UPDATE World SET randomNumber = randomNumber WHERE id <= ?", "[6]", "6"},
		{"run", "DELETE FROM World WHERE id > ?", "[1000]", "0"},
		// run steps a query to its end.
		{"run", "SELECT id FROM World", "", "0"},
	})
}

func TestDBTx(t *testing.T) {
	d := openFixture(t)
	const upd = "UPDATE World SET randomNumber = ? WHERE id = ?"
	runCalls(t, d, []call{
		{"tx", upd, "[[1,1],[2,2],[3,1000]]", "2"},
		{"all", "SELECT id, randomNumber FROM World WHERE id <= 3", "", fmt.Sprintf(`[["id","randomNumber"],1,1,2,2,3,%d]`, worldRandom(3))},
		// A failing item rolls back the items before it.
		{"tx", upd, "[[7,3],[null,1]]", `error: tx item 1 (rolled back): sqlite "UPDATE World SET randomNumber = ? WHERE id = ?": sqlite: step: constraint failed: NOT NULL constraint failed: World.randomNumber`},
		{"get", "SELECT randomNumber FROM World WHERE id = 3", "", fmt.Sprintf(`{"randomNumber":%d}`, worldRandom(3))},
		{"tx", upd, "[]", "0"},
		// The connection is out of the transaction after each.
		{"tx", upd, "[[9,3]]", "1"},
		{"get", "SELECT randomNumber FROM World WHERE id = 3", "", `{"randomNumber":9}`},
		{"run", "BEGIN IMMEDIATE", "", "1"}, // fails inside a transaction; changes() is the last update's
		{"run", "ROLLBACK", "", "1"},
	})
}

func TestDBErrors(t *testing.T) {
	d := openFixture(t)
	runCalls(t, d, []call{
		{"all", "SELECT nope FROM Nowhere", "", `error: sqlite: prepare "SELECT nope FROM Nowhere": SQL logic error: no such table: Nowhere`},
		{"get", "SELECT id FROM World WHERE id = ?", "", `error: sqlite "SELECT id FROM World WHERE id = ?": 0 params given, statement has 1`},
		{"get", "SELECT id FROM World WHERE id = ?", "[1,2]", `error: sqlite "SELECT id FROM World WHERE id = ?": 2 params given, statement has 1`},
		{"get", "SELECT ?", `[{"a":1}]`, `error: sqlite "SELECT ?": param 1 is map[string]interface {}, want number, string, boolean or null`},
		{"batch", "SELECT ?", `[[1],[]]`, `error: batch item 1: sqlite "SELECT ?": 0 params given, statement has 1`},
		// SQL without a statement: SQLite prepares a NULL statement, which
		// the step refuses.
		{"run", " -- nothing\n ; /* here */ ", "", `error: sqlite " -- nothing\n ; /* here */ ": sqlite: step: bad parameter or other API misuse: not an error`},
		{"all", "SELECT 1 AS a; SELECT 2 AS b", "", `error: sqlite: prepare "SELECT 1 AS a; SELECT 2 AS b": statement has trailing bytes`},
		{"all", "SELECT 1 AS a;  ", "", `error: sqlite: prepare "SELECT 1 AS a;  ": statement has trailing bytes`},
		// Double-quoted string literals are off; a prepare error gives the
		// position in the SQL.
		{"all", "SELECT id,\n\t\"nope\" AS x FROM World", "", `error: sqlite: prepare "SELECT id,\n\t\"nope\" AS x FROM World": 2:9: SQL logic error: no such column: "nope" - should this be a string literal in single-quotes?`},
		{"run", "INSERT INTO World VALUES (?, ?)", "[1,1]", `error: sqlite "INSERT INTO World VALUES (?, ?)": sqlite: step: constraint failed: UNIQUE constraint failed: World.id`},
		// The statement is usable after an error.
		{"run", "INSERT INTO World VALUES (?, ?)", "[101,1]", "1"},
	})
}

// TestOpenDBPath opens a dataset whose path holds the URI's delimiters,
// and checks that a missing dataset is not created.
func TestOpenDBPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a?b#c%20d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fixtureDB(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tfb.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := openDB(path)
	if err != nil {
		t.Fatal(err)
	}
	runCalls(t, d, []call{{"get", "SELECT count(*) AS n FROM World", "", `{"n":100}`}})
	if err := d.close(); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(dir, "none.db")
	if _, err := openDB(missing); err == nil || err.Error() != "sqlite open "+missing+": sqlite: open \""+missing+"\": unable to open database file" {
		t.Errorf("openDB(missing) error = %v", err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("missing dataset was created: %v", err)
	}
}

// TestDBDeclaredTypes reads columns declared BOOLEAN, DATE, DATETIME and
// TIMESTAMP (which mattn/go-sqlite3's Rows.Next would convert to bool and
// time.Time): their values come back as stored, like any column's.
func TestDBDeclaredTypes(t *testing.T) {
	d := openFixture(t)
	runCalls(t, d, []call{
		{"run", "CREATE TABLE Typed(b BOOLEAN, d DATE, dt DATETIME, ts TIMESTAMP)", "", "0"},
		{"run", "INSERT INTO Typed VALUES (?, ?, ?, ?)", `[2,"2026-12-03","2026-12-03 10:28:00",1796380080]`, "1"},
		{"run", "INSERT INTO Typed VALUES (?, ?, ?, ?)", `[0,"not a date",1.5,null]`, "1"},
		{"all", "SELECT * FROM Typed", "", `[["b","d","dt","ts"],2,"2026-12-03","2026-12-03 10:28:00",1796380080,0,"not a date",1.5,null]`},
	})
}

// TestDBRowBuffer reads results larger than the row buffer (16 KiB at
// first): rows that fill it mid-query, and a single value larger than it.
func TestDBRowBuffer(t *testing.T) {
	d := openFixture(t)
	long := strings.Repeat("é\"", 12000) // 36,000 bytes
	runCalls(t, d, []call{
		{"get", "SELECT ? AS v", `["` + strings.ReplaceAll(long, `"`, `\"`) + `"]`, `{"v":` + string(appendJSONString(nil, long)) + `}`},
	})
	var want, flat []string
	for id := 1; id <= 100; id++ {
		want = append(want, fmt.Sprintf(`{"id":%d,"pad":"%s"}`, id, strings.Repeat("x", 400+id)))
		flat = append(flat, fmt.Sprintf(`%d,"%s"`, id, strings.Repeat("x", 400+id)))
	}
	for range 2 { // the buffer grew the first time
		runCalls(t, d, []call{
			{"all", "SELECT id, printf('%.*c', 400 + id, 'x') AS pad FROM World ORDER BY id", "", `[["id","pad"],` + strings.Join(flat, ",") + "]"},
			{"batch", "SELECT id, printf('%.*c', 400 + id, 'x') AS pad FROM World WHERE id = ?", "[[1],[100]]", "[" + want[0] + "," + want[99] + "]"},
		})
	}
}

// TestFromLatin1: a page's byte string, as V8 writes it in UTF-8, back to
// its bytes; and the other way, Latin-1 to UTF-8.
func TestFromLatin1(t *testing.T) {
	long := strings.Repeat("abcdefgh", 5)
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain ASCII", "plain ASCII"},
		{"caf\u00c3\u00a9", "café"}, // é's UTF-8 bytes C3 A9, one character each
		{long + "\u00e2\u0080\u0094" + long, long + "—" + long}, // past the 8-byte scan
		{"\u00f0\u009d\u0084\u009e", "𝄞"},
		{"kept フ", "kept フ"}, // above U+00FF: text that was not escaped stays as it is
	} {
		if got := fromLatin1(tc.in); got != tc.want {
			t.Errorf("fromLatin1(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// latin1ToUTF8: a frame V8 wrote one byte per character, as text.
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain ASCII", "plain ASCII"},
		{"caf\xe9", "café"},
		{long + "\x80\xff" + long + "\xa0", long + "\u0080ÿ" + long + "\u00a0"}, // past the 8-byte scan
	} {
		if got := latin1ToUTF8(tc.in); got != tc.want {
			t.Errorf("latin1ToUTF8(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	resp, err := parseFrame("200~\ntext/html\ncaf\u00c3\u00a9", false)
	if err != nil || resp.Status != 200 || resp.Body != "café" {
		t.Errorf("parseFrame of a byte-string page = %+v, %v; want 200 café", resp, err)
	}
}
