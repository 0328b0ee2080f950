package runtime

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// db is one isolate's SQLite connection: C SQLite through the driver
// types of github.com/mattn/go-sqlite3 (not database/sql, whose pool and
// per-call allocations cost more than a point query). Statements are
// prepared once and cached by SQL text in stmts. A db is used by one
// goroutine at a time (its isolate's), so the connection is opened
// without SQLite's per-connection mutex.
//
// What the driver decides: a query binds, steps and reads its first row
// in one cgo call (SQLiteStmt.QueryContext; a context without Done starts
// no goroutine), each further row is one call (Rows.Next), Rows.Close
// resets the statement (it finalizes only statements the connection's
// own Query prepared); an Exec binds with one call per parameter, steps
// once and reports the changes. Integers come back as int64, floats as
// float64, text as string, blobs as []byte, NULL as nil, except in
// columns declared BOOLEAN (bool), DATE, DATETIME or TIMESTAMP
// (time.Time), which the driver converts.
//
// Where this differs from zombiezen.com/go/sqlite, the binding before: the
// converted columns above; SQL after the first statement is ignored (it
// was an error, "statement has trailing bytes"); double-quoted string
// literals are accepted (zombiezen disabled them); a prepare error has no
// "line:column: " position.
type db struct {
	path    string
	conn    *sqlite3.SQLiteConn
	stmts   map[string]*stmt
	changes *stmt // SELECT changes()
	buf     []byte
	args    []driver.NamedValue
	dest    []driver.Value
	// params and lists back the parsed parameters of one host call; they
	// are reused, so parameters never outlive the call.
	params []any
	lists  [][]any
}

// stmt is a cached prepared statement.
type stmt struct {
	sql   string
	s     *sqlite3.SQLiteStmt
	names []string // JSON-quoted column names + ':'
	// noCols is set once an execution showed the statement has no result
	// columns: it then runs through ExecContext, which reports its changes.
	noCols bool
}

// bg is the context of every driver call: without a Done channel the
// driver neither starts a goroutine nor watches for cancellation.
var bg = context.Background()

// openDB opens an existing dataset read-write (never creating it) and sets
// the per-connection pragmas every adapter sets (DESIGN.md, The dataset):
// busy_timeout 5000 ms and synchronous NORMAL, which the driver runs on
// open from the DSN's options (TestDBValues reads them back).
func openDB(path string) (*db, error) {
	conn, err := (&sqlite3.SQLiteDriver{}).Open(dsn(path))
	if err != nil {
		return nil, fmt.Errorf("sqlite open %s: %w", path, sqlErr(err))
	}
	return &db{path: path, conn: conn.(*sqlite3.SQLiteConn), stmts: map[string]*stmt{}}, nil
}

// dsn is the driver's URI for path: mode=rw opens read-write and fails
// instead of creating a missing file; _mutex=no opens without SQLite's
// connection mutex; the driver runs PRAGMA busy_timeout = 5000 and PRAGMA
// synchronous = NORMAL for the _busy_timeout and _sync options. The path
// is absolute (so that it cannot read as a URI authority) with the URI's
// delimiters escaped.
func dsn(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	path = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + path + "?mode=rw&_mutex=no&_busy_timeout=5000&_sync=NORMAL"
}

func (d *db) close() error {
	for _, st := range d.stmts {
		st.s.Close() // finalizes: the driver's statement cache is off
	}
	if err := d.conn.Close(); err != nil {
		return fmt.Errorf("sqlite close %s: %w", d.path, sqlErr(err))
	}
	return nil
}

// sqliteError words a driver error the way the engine always has:
// SQLite's text for the result code, then the connection's message when
// it adds to it ("SQL logic error: no such table: Nowhere"), then the
// system error if any.
type sqliteError struct {
	err  error
	text string
}

func (e *sqliteError) Error() string { return e.text }
func (e *sqliteError) Unwrap() error { return e.err }

func sqlErr(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	text, msg := se.Code.Error(), se.Error()
	if se.SystemErrno != 0 { // the driver appends it to the message
		msg = strings.TrimSuffix(msg, ": "+se.SystemErrno.Error())
	}
	if msg != "" && msg != text {
		text += ": " + msg
	}
	if se.SystemErrno != 0 {
		text += ": " + se.SystemErrno.Error()
	}
	return &sqliteError{err, text}
}

// prepare returns the cached statement for sql with params bound into
// d.args (positional, 1-based).
func (d *db) prepare(sql string, params []any) (*stmt, []driver.NamedValue, error) {
	st := d.stmts[sql]
	if st == nil {
		if isEmptySQL(sql) {
			// The driver would hold a nil statement handle, which its
			// step path dereferences.
			return nil, nil, fmt.Errorf("sqlite: prepare %q: no statement", sql)
		}
		s, err := d.conn.Prepare(sql)
		if err != nil {
			return nil, nil, fmt.Errorf("sqlite: prepare %q: %w", sql, sqlErr(err))
		}
		st = &stmt{sql: sql, s: s.(*sqlite3.SQLiteStmt)}
		d.stmts[sql] = st
	}
	if n := st.s.NumInput(); n != len(params) {
		return nil, nil, fmt.Errorf("sqlite %q: %d params given, statement has %d", sql, len(params), n)
	}
	args := d.args[:0]
	for i, p := range params {
		switch v := p.(type) {
		case nil, int64, bool, string:
		case float64:
			if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
				p = int64(v)
			}
		default:
			return nil, nil, fmt.Errorf("sqlite %q: param %d is %T, want number, string, boolean or null", sql, i+1, p)
		}
		args = append(args, driver.NamedValue{Ordinal: i + 1, Value: p})
	}
	d.args = args
	return st, args, nil
}

// isEmptySQL reports whether sql holds no statement: only white space,
// semicolons and comments.
func isEmptySQL(sql string) bool {
	for i := 0; i < len(sql); {
		switch c := sql[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ';':
			i++
		case strings.HasPrefix(sql[i:], "--"):
			if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(sql)
			}
		case strings.HasPrefix(sql[i:], "/*"):
			if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(sql)
			}
		default:
			return false
		}
	}
	return true
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
func (d *db) prepareJSON(sql, paramsJSON string) (*stmt, []driver.NamedValue, error) {
	params, err := d.parseParams(sql, paramsJSON)
	if err != nil {
		return nil, nil, err
	}
	return d.prepare(sql, params)
}

func stepErr(sql string, err error) error {
	return fmt.Errorf("sqlite %q: sqlite: step: %w", sql, sqlErr(err))
}

// query binds args and takes the statement's first step; dest has room
// for its columns.
func (d *db) query(st *stmt, args []driver.NamedValue) (driver.Rows, []driver.Value, error) {
	rows, err := st.s.QueryContext(bg, args)
	if err != nil {
		return nil, nil, stepErr(st.sql, err)
	}
	n := len(rows.Columns())
	if cap(d.dest) < n {
		d.dest = make([]driver.Value, n)
	}
	return rows, d.dest[:n], nil
}

// all runs sql and returns every row as a JSON array of objects keyed by
// column name.
func (d *db) all(sql, paramsJSON string) (string, error) {
	st, args, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	rows, dest, err := d.query(st, args)
	if err != nil {
		return "", err
	}
	defer rows.Close() // resets the statement
	b := append(d.buf[:0], '[')
	for n := 0; ; n++ {
		err := rows.Next(dest)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", stepErr(sql, err)
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = st.appendRow(b, rows, dest)
	}
	b = append(b, ']')
	d.buf = b
	return string(b), nil
}

// get runs sql and returns the first row as a JSON object, or "null".
func (d *db) get(sql, paramsJSON string) (string, error) {
	st, args, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	b, err := d.first(d.buf[:0], st, args)
	if err != nil {
		return "", err
	}
	d.buf = b
	return string(b), nil
}

// first appends the statement's first row (or null; for a statement
// without result columns, its number of changed rows) and resets it.
func (d *db) first(b []byte, st *stmt, args []driver.NamedValue) ([]byte, error) {
	if st.noCols {
		n, err := d.execNoCols(st, args)
		if err != nil {
			return nil, err
		}
		return strconv.AppendInt(b, int64(n), 10), nil
	}
	rows, dest, err := d.query(st, args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if len(dest) == 0 {
		if err := d.drain(st, rows); err != nil {
			return nil, err
		}
		st.noCols = true
		n, err := d.lastChanges()
		if err != nil {
			return nil, err
		}
		return strconv.AppendInt(b, int64(n), 10), nil
	}
	switch err := rows.Next(dest); err {
	case nil:
		b = st.appendRow(b, rows, dest)
	case io.EOF:
		b = append(b, "null"...)
	default:
		return nil, stepErr(st.sql, err)
	}
	return b, nil
}

// drain steps rows to the end.
func (d *db) drain(st *stmt, rows driver.Rows) error {
	for {
		switch err := rows.Next(nil); err {
		case nil:
		case io.EOF:
			return nil
		default:
			return stepErr(st.sql, err)
		}
	}
}

// lastChanges is sqlite3_changes: the rows changed by the connection's
// last completed INSERT, UPDATE or DELETE (the driver reports it only
// from Exec).
func (d *db) lastChanges() (int, error) {
	if d.changes == nil {
		st, _, err := d.prepare("SELECT changes()", nil)
		if err != nil {
			return 0, err
		}
		d.changes = st
	}
	rows, dest, err := d.query(d.changes, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if err := rows.Next(dest); err != nil {
		return 0, stepErr(d.changes.sql, err)
	}
	n, _ := dest[0].(int64)
	return int(n), nil
}

// execNoCols executes a statement without result columns: ExecContext
// binds, steps it (to SQLITE_DONE, which ends its execution) and reports
// the changes.
func (d *db) execNoCols(st *stmt, args []driver.NamedValue) (int, error) {
	res, err := st.s.ExecContext(bg, args)
	if err != nil {
		return 0, stepErr(st.sql, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
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
	st, args, err := d.prepare(sql, params)
	if err != nil {
		return 0, err
	}
	if st.noCols {
		return d.execNoCols(st, args)
	}
	// A statement with result columns (or not yet known to have none)
	// is stepped to the end through Query, which resets it on Close.
	rows, dest, err := d.query(st, args)
	if err != nil {
		return 0, err
	}
	err = d.drain(st, rows)
	rows.Close()
	if err != nil {
		return 0, err
	}
	st.noCols = len(dest) == 0
	return d.lastChanges()
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
		st, args, err := d.prepare(sql, params)
		if err != nil {
			return "", fmt.Errorf("batch item %d: %w", i, err)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b, err = d.first(b, st, args)
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
	if _, err := d.exec("BEGIN IMMEDIATE", nil); err != nil {
		return 0, fmt.Errorf("sqlite BEGIN IMMEDIATE: %w", err)
	}
	defer d.endTx(&err)
	for i, params := range list {
		n, err := d.exec(sql, params)
		if err != nil {
			return 0, fmt.Errorf("tx item %d (rolled back): %w", i, err)
		}
		total += n
	}
	return total, nil
}

// endTx commits the transaction tx began if *errp is nil, and rolls it
// back otherwise or when COMMIT fails; it does nothing when SQLite
// already ended the transaction (an error that rolls back on its own).
func (d *db) endTx(errp *error) {
	if d.conn.AutoCommit() {
		return
	}
	if *errp == nil {
		if _, *errp = d.exec("COMMIT", nil); *errp == nil || d.conn.AutoCommit() {
			return
		}
	}
	if _, err := d.exec("ROLLBACK", nil); err != nil {
		*errp = fmt.Errorf("%w; ROLLBACK: %w", *errp, err)
	}
}

// appendRow appends the current row as a JSON object: integers and floats
// as numbers, text as strings, NULL as null, blobs as strings; the
// driver's conversions of BOOLEAN columns as true or false, of DATE,
// DATETIME and TIMESTAMP columns as strings in its format.
func (st *stmt) appendRow(b []byte, rows driver.Rows, dest []driver.Value) []byte {
	if len(st.names) != len(dest) {
		cols := rows.Columns()
		st.names = make([]string, len(cols))
		for i, c := range cols {
			st.names[i] = string(appendJSONString(nil, c)) + ":"
		}
	}
	b = append(b, '{')
	for i, name := range st.names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, name...)
		switch v := dest[i].(type) {
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				b = append(b, "null"...)
			} else {
				b = strconv.AppendFloat(b, v, 'g', -1, 64)
			}
		case nil:
			b = append(b, "null"...)
		case string:
			b = appendJSONString(b, v)
		case []byte:
			b = appendJSONString(b, string(v))
		case bool:
			b = strconv.AppendBool(b, v)
		case time.Time:
			b = appendJSONString(b, v.Format(sqlite3.SQLiteTimestampFormats[0]))
		default:
			b = append(b, "null"...)
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
