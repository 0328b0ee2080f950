package runtime

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// db is one isolate's SQLite connection. Statements are prepared once and
// cached by SQL text (sqlite.Conn.Prepare keeps them per connection).
type db struct {
	path string
	conn *sqlite.Conn
	cols map[*sqlite.Stmt][]string // JSON-quoted column names + ':'
	buf  []byte
	// params and lists back the parsed parameters of one host call; they
	// are reused, so parameters never outlive the call.
	params []any
	lists  [][]any
}

// openDB opens an existing dataset read-write (never creating it) and sets
// the per-connection pragmas every adapter sets (DESIGN.md, The dataset):
// busy_timeout 5000 ms and synchronous NORMAL.
func openDB(path string) (*db, error) {
	conn, err := sqlite.OpenConn(path, sqlite.OpenReadWrite)
	if err != nil {
		return nil, fmt.Errorf("sqlite open %s: %w", path, err)
	}
	for _, pragma := range []string{"PRAGMA busy_timeout = 5000", "PRAGMA synchronous = NORMAL"} {
		if err := sqlitex.ExecuteTransient(conn, pragma, nil); err != nil {
			conn.Close()
			return nil, fmt.Errorf("sqlite %s: %s: %w", path, pragma, err)
		}
	}
	return &db{path: path, conn: conn, cols: map[*sqlite.Stmt][]string{}}, nil
}

func (d *db) close() error {
	if err := d.conn.Close(); err != nil {
		return fmt.Errorf("sqlite close %s: %w", d.path, err)
	}
	return nil
}

// prepare returns the cached statement for sql with params bound
// (positional, 1-based).
func (d *db) prepare(sql string, params []any) (*sqlite.Stmt, error) {
	stmt, err := d.conn.Prepare(sql)
	if err != nil {
		return nil, err // names the SQL
	}
	if n := stmt.BindParamCount(); n != len(params) {
		return nil, fmt.Errorf("sqlite %q: %d params given, statement has %d", sql, len(params), n)
	}
	for i, p := range params {
		switch v := p.(type) {
		case nil:
			stmt.BindNull(i + 1)
		case int64:
			stmt.BindInt64(i+1, v)
		case bool:
			stmt.BindBool(i+1, v)
		case string:
			stmt.BindText(i+1, v)
		case float64:
			if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
				stmt.BindInt64(i+1, int64(v))
			} else {
				stmt.BindFloat(i+1, v)
			}
		default:
			return nil, fmt.Errorf("sqlite %q: param %d is %T, want number, string, boolean or null", sql, i+1, p)
		}
	}
	return stmt, nil
}

// parseParams decodes a JSON array of positional params; "" means none.
// Arrays of integers, what every TFB route sends ("[4174]"), are scanned
// by scanInts; anything else goes through encoding/json. The result is
// valid until the next call.
func (d *db) parseParams(sql, js string) ([]any, error) {
	if js == "" {
		return nil, nil
	}
	if ps, next, ok := scanInts(js, 0, d.params[:0]); ok && next == len(js) {
		d.params = ps
		return ps, nil
	}
	var params []any
	if err := json.Unmarshal([]byte(js), &params); err != nil {
		return nil, fmt.Errorf("sqlite %q: params %.60q: want a JSON array: %w", sql, js, err)
	}
	return params, nil
}

// parseParamsList decodes a JSON array of params arrays (batch, tx), by
// scanInts when every inner array holds integers ("[[12],[7]]"), by
// encoding/json otherwise. The result is valid until the next call.
func (d *db) parseParamsList(sql, js string) ([][]any, error) {
	if lists, ok := d.scanIntLists(js); ok {
		return lists, nil
	}
	var list [][]any
	if err := json.Unmarshal([]byte(js), &list); err != nil {
		return nil, fmt.Errorf("sqlite %q: params list %.60q: want a JSON array of arrays: %w", sql, js, err)
	}
	return list, nil
}

// scanIntLists is parseParamsList's fast path: ok is false unless js is
// exactly a JSON array of scanInts arrays.
func (d *db) scanIntLists(js string) (_ [][]any, ok bool) {
	if len(js) < 2 || js[0] != '[' {
		return nil, false
	}
	ps, lists, i := d.params[:0], d.lists[:0], 1
	starts := make([]int, 0, 32)
	if js[i] != ']' {
		for {
			starts = append(starts, len(ps))
			if ps, i, ok = scanInts(js, i, ps); !ok || i >= len(js) {
				return nil, false
			}
			if js[i] == ']' {
				break
			}
			if js[i] != ',' {
				return nil, false
			}
			i++
		}
	}
	if i != len(js)-1 {
		return nil, false
	}
	for k, start := range starts { // slice ps only now: appends may have moved it
		end := len(ps)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		lists = append(lists, ps[start:end:end])
	}
	d.params, d.lists = ps, lists
	return lists, true
}

// scanInts scans the JSON array of integers at js[i:] ("[4174]", "[]",
// "[1,-2]"; no whitespace, as JSON.stringify writes them), appends its
// values to ps as int64 and returns the index after its "]". ok is false
// for any other text, including integers of more than 15 digits (beyond
// 2^53, where a JS number is no longer exact): the caller then falls back
// to encoding/json, which also reports malformed input.
func scanInts(js string, i int, ps []any) (_ []any, next int, ok bool) {
	if i >= len(js) || js[i] != '[' {
		return ps, i, false
	}
	i++
	if i < len(js) && js[i] == ']' {
		return ps, i + 1, true
	}
	for {
		neg := i < len(js) && js[i] == '-'
		if neg {
			i++
		}
		start := i
		var v int64
		for i < len(js) && js[i] >= '0' && js[i] <= '9' {
			v = v*10 + int64(js[i]-'0')
			i++
		}
		if n := i - start; n == 0 || n > 15 || (n > 1 && js[start] == '0') || i >= len(js) {
			return ps, i, false
		}
		if neg {
			v = -v
		}
		ps = append(ps, v)
		switch js[i] {
		case ',':
			i++
		case ']':
			return ps, i + 1, true
		default:
			return ps, i, false
		}
	}
}

// prepareJSON is prepare with the parameters given as a JSON array.
func (d *db) prepareJSON(sql, paramsJSON string) (*sqlite.Stmt, error) {
	params, err := d.parseParams(sql, paramsJSON)
	if err != nil {
		return nil, err
	}
	return d.prepare(sql, params)
}

func stepErr(sql string, err error) error {
	return fmt.Errorf("sqlite %q: %w", sql, err)
}

// all runs sql and returns every row as a JSON array of objects keyed by
// column name.
func (d *db) all(sql, paramsJSON string) (string, error) {
	stmt, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	defer stmt.Reset()
	b := append(d.buf[:0], '[')
	for n := 0; ; n++ {
		row, err := stmt.Step()
		if err != nil {
			return "", stepErr(sql, err)
		}
		if !row {
			break
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = d.appendRow(b, stmt)
	}
	b = append(b, ']')
	d.buf = b
	return string(b), nil
}

// get runs sql and returns the first row as a JSON object, or "null".
func (d *db) get(sql, paramsJSON string) (string, error) {
	stmt, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	defer stmt.Reset()
	b, err := d.first(d.buf[:0], sql, stmt)
	if err != nil {
		return "", err
	}
	d.buf = b
	return string(b), nil
}

// first appends the statement's first row (or null; for a statement
// without result columns, its number of changed rows) after stepping it
// to the end.
func (d *db) first(b []byte, sql string, stmt *sqlite.Stmt) ([]byte, error) {
	row, err := stmt.Step()
	if err != nil {
		return nil, stepErr(sql, err)
	}
	switch {
	case row:
		b = d.appendRow(b, stmt)
	case stmt.ColumnCount() == 0:
		b = strconv.AppendInt(b, int64(d.conn.Changes()), 10)
	default:
		b = append(b, "null"...)
	}
	return b, nil
}

// run executes sql to completion and returns the number of changed rows.
func (d *db) run(sql, paramsJSON string) (int, error) {
	params, err := d.parseParams(sql, paramsJSON)
	if err != nil {
		return 0, err
	}
	return d.exec(sql, params)
}

func (d *db) exec(sql string, params []any) (int, error) {
	stmt, err := d.prepare(sql, params)
	if err != nil {
		return 0, err
	}
	defer stmt.Reset()
	for {
		row, err := stmt.Step()
		if err != nil {
			return 0, stepErr(sql, err)
		}
		if !row {
			break
		}
	}
	return d.conn.Changes(), nil
}

// batch executes sql once per params list, each its own execution of the
// prepared statement (TFB rules, queries test: one query per row), and
// returns a JSON array with one result per execution: the first row or
// null for queries, the changed-row count otherwise.
func (d *db) batch(sql, listJSON string) (string, error) {
	list, err := d.parseParamsList(sql, listJSON)
	if err != nil {
		return "", err
	}
	b := append(d.buf[:0], '[')
	for i, params := range list {
		stmt, err := d.prepare(sql, params)
		if err != nil {
			return "", fmt.Errorf("batch item %d: %w", i, err)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b, err = d.first(b, sql, stmt)
		stmt.Reset()
		if err != nil {
			return "", fmt.Errorf("batch item %d: %w", i, err)
		}
	}
	b = append(b, ']')
	d.buf = b
	return string(b), nil
}

// tx executes sql once per params list inside BEGIN IMMEDIATE ... COMMIT
// (ROLLBACK on the first error; IMMEDIATE takes the write lock up front,
// so busy_timeout applies instead of a failed lock upgrade) and returns
// the total number of changed rows.
func (d *db) tx(sql, listJSON string) (total int, err error) {
	list, err := d.parseParamsList(sql, listJSON)
	if err != nil {
		return 0, err
	}
	end, err := sqlitex.ImmediateTransaction(d.conn)
	if err != nil {
		return 0, fmt.Errorf("sqlite BEGIN IMMEDIATE: %w", err)
	}
	defer end(&err)
	for i, params := range list {
		n, err := d.exec(sql, params)
		if err != nil {
			return 0, fmt.Errorf("tx item %d (rolled back): %w", i, err)
		}
		total += n
	}
	return total, nil
}

// appendRow appends the current row as a JSON object: integers and floats
// as numbers, text as strings, NULL as null, blobs as strings.
func (d *db) appendRow(b []byte, stmt *sqlite.Stmt) []byte {
	names := d.cols[stmt]
	if names == nil {
		n := stmt.ColumnCount()
		names = make([]string, n)
		for i := range n {
			names[i] = string(appendJSONString(nil, stmt.ColumnName(i))) + ":"
		}
		d.cols[stmt] = names
	}
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, name...)
		switch stmt.ColumnType(i) {
		case sqlite.TypeInteger:
			b = strconv.AppendInt(b, stmt.ColumnInt64(i), 10)
		case sqlite.TypeFloat:
			f := stmt.ColumnFloat(i)
			if math.IsInf(f, 0) || math.IsNaN(f) {
				b = append(b, "null"...)
			} else {
				b = strconv.AppendFloat(b, f, 'g', -1, 64)
			}
		case sqlite.TypeNull:
			b = append(b, "null"...)
		default:
			b = appendJSONString(b, stmt.ColumnText(i))
		}
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal; invalid UTF-8
// becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
