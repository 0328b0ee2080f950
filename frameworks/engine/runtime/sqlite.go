package runtime

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The part of SQLite's C API the engine calls. The definitions are C
// SQLite's amalgamation as github.com/mattn/go-sqlite3 compiles it into
// the binary (imported below for that; with its libsqlite3 build tag,
// the system library's).
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef long long sqlite3_int64;
extern int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
extern int sqlite3_close(sqlite3 *db);
extern int sqlite3_db_config(sqlite3 *db, int op, ...);
extern int sqlite3_extended_result_codes(sqlite3 *db, int onoff);
extern int sqlite3_exec(sqlite3 *db, const char *sql, void *callback, void *arg, char **errmsg);
extern int sqlite3_extended_errcode(sqlite3 *db);
extern const char *sqlite3_errmsg(sqlite3 *db);
extern const char *sqlite3_errstr(int rc);
extern int sqlite3_error_offset(sqlite3 *db);
extern int sqlite3_changes(sqlite3 *db);
extern int sqlite3_get_autocommit(sqlite3 *db);
extern int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned int flags, sqlite3_stmt **stmt, const char **tail);
extern int sqlite3_finalize(sqlite3_stmt *stmt);
extern int sqlite3_reset(sqlite3_stmt *stmt);
extern int sqlite3_clear_bindings(sqlite3_stmt *stmt);
extern int sqlite3_bind_parameter_count(sqlite3_stmt *stmt);
extern int sqlite3_bind_null(sqlite3_stmt *stmt, int i);
extern int sqlite3_bind_int64(sqlite3_stmt *stmt, int i, sqlite3_int64 v);
extern int sqlite3_bind_double(sqlite3_stmt *stmt, int i, double v);
extern int sqlite3_bind_text(sqlite3_stmt *stmt, int i, const char *s, int n, void (*destructor)(void *));
extern int sqlite3_step(sqlite3_stmt *stmt);
extern sqlite3 *sqlite3_db_handle(sqlite3_stmt *stmt);
extern int sqlite3_column_count(sqlite3_stmt *stmt);
extern const char *sqlite3_column_name(sqlite3_stmt *stmt, int i);
extern int sqlite3_column_type(sqlite3_stmt *stmt, int i);
extern sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *stmt, int i);
extern double sqlite3_column_double(sqlite3_stmt *stmt, int i);
extern const unsigned char *sqlite3_column_text(sqlite3_stmt *stmt, int i);
extern const void *sqlite3_column_blob(sqlite3_stmt *stmt, int i);
extern int sqlite3_column_bytes(sqlite3_stmt *stmt, int i);

enum {
	TF_OK = 0, TF_MISUSE = 21, TF_ROW = 100, TF_DONE = 101,
	TF_INTEGER = 1, TF_FLOAT = 2, TF_TEXT = 3, TF_BLOB = 4, TF_NULL = 5,
	TF_OPEN_READWRITE = 0x00000002, TF_OPEN_NOMUTEX = 0x00008000,
	TF_PREPARE_PERSISTENT = 0x01,
	TF_DBCONFIG_DQS_DML = 1013, TF_DBCONFIG_DQS_DDL = 1014,
};

// tf_db_config sets an int option (sqlite3_db_config is variadic, which
// cgo cannot call).
static int tf_db_config(sqlite3 *db, int op, int v) {
	return sqlite3_db_config(db, op, v, (int *)0);
}

// tf_arg is one parameter; a TF_TEXT parameter's bytes are the next n of
// the scratch's text.
typedef struct {
	int type;
	int n;
	sqlite3_int64 i;
	double f;
} tf_arg;

// tf_scratch is a connection's C memory for tf_run: the parameters in,
// the rows and the result out. Go grows the buffers.
typedef struct {
	tf_arg *args;
	int argcap;
	char *text;
	int textcap;
	unsigned char *out; // rows, each column a type byte and its value:
	int outcap;         // int64 or double (8 bytes), NULL (none), text or blob (uint32 length, bytes)
	// The result of tf_run.
	int rc;      // TF_ROW (the row limit was reached, or full), TF_DONE, or an error code
	int full;    // the current row did not fit in out: it is pending, and needs need bytes
	int need;
	int rows;    // rows written to out
	int used;    // bytes written to out
	int ncol;    // the statement's result columns
	int changes; // sqlite3_changes, at TF_DONE
} tf_scratch;

// Flags of tf_run.
enum {
	TF_BIND = 1,    // reset the statement and bind nargs parameters first
	TF_PENDING = 2, // write the current row (left pending by a full out) before stepping
	TF_DISCARD = 4, // step to the end without writing rows
};

static int tf_rowsize(sqlite3_stmt *s, int ncol) {
	int need = 0;
	for (int i = 0; i < ncol; i++) {
		switch (sqlite3_column_type(s, i)) {
		case TF_INTEGER:
		case TF_FLOAT:
			need += 9;
			break;
		case TF_NULL:
			need += 1;
			break;
		case TF_TEXT:
			sqlite3_column_text(s, i);
			need += 5 + sqlite3_column_bytes(s, i);
			break;
		default:
			sqlite3_column_blob(s, i);
			need += 5 + sqlite3_column_bytes(s, i);
		}
	}
	return need;
}

static void tf_putrow(sqlite3_stmt *s, int ncol, unsigned char *p) {
	for (int i = 0; i < ncol; i++) {
		int t = sqlite3_column_type(s, i);
		const void *z;
		uint32_t n;
		*p++ = (unsigned char)t;
		switch (t) {
		case TF_INTEGER: {
			sqlite3_int64 v = sqlite3_column_int64(s, i);
			memcpy(p, &v, 8);
			p += 8;
			break;
		}
		case TF_FLOAT: {
			double v = sqlite3_column_double(s, i);
			memcpy(p, &v, 8);
			p += 8;
			break;
		}
		case TF_NULL:
			break;
		default:
			z = t == TF_TEXT ? (const void *)sqlite3_column_text(s, i) : sqlite3_column_blob(s, i);
			n = (uint32_t)sqlite3_column_bytes(s, i);
			memcpy(p, &n, 4);
			p += 4;
			if (n > 0) {
				memcpy(p, z, n);
			}
			p += n;
		}
	}
}

// tf_run is one execution of s, or its continuation, in one cgo call:
// with TF_BIND it resets s and binds nargs parameters, then steps s,
// writing each row to sc->out, until maxrows rows are written (if
// maxrows > 0), s is done, a step fails, or a row does not fit. At
// TF_DONE or the row limit it resets s, which ends its read
// transaction; after an error it leaves s for the caller to read the
// message and reset.
static void tf_run(sqlite3_stmt *s, int flags, int nargs, int maxrows, tf_scratch *sc) {
	int rc = TF_OK;
	int pending = flags & TF_PENDING;
	sc->full = 0;
	sc->rows = 0;
	sc->used = 0;
	sc->ncol = 0;
	if (s == 0) {
		sc->rc = TF_MISUSE; // what sqlite3_step says of a NULL statement (SQL without one)
		return;
	}
	if (flags & TF_BIND) {
		const char *text = sc->text;
		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		for (int i = 0; i < nargs && rc == TF_OK; i++) {
			const tf_arg *a = &sc->args[i];
			switch (a->type) {
			case TF_INTEGER:
				rc = sqlite3_bind_int64(s, i + 1, a->i);
				break;
			case TF_FLOAT:
				rc = sqlite3_bind_double(s, i + 1, a->f);
				break;
			case TF_TEXT:
				rc = sqlite3_bind_text(s, i + 1, text, a->n, (void (*)(void *))-1); // SQLITE_TRANSIENT: copied
				text += a->n;
				break;
			default:
				rc = sqlite3_bind_null(s, i + 1);
			}
		}
		if (rc != TF_OK) {
			sc->rc = rc;
			return;
		}
	}
	for (;;) {
		if (!pending) {
			rc = sqlite3_step(s);
			if (rc != TF_ROW) {
				break;
			}
			if (flags & TF_DISCARD) {
				continue;
			}
		}
		pending = 0;
		int ncol = sqlite3_column_count(s);
		int need = tf_rowsize(s, ncol);
		if (need > sc->outcap - sc->used) {
			sc->rc = TF_ROW;
			sc->full = 1;
			sc->need = need;
			sc->ncol = ncol;
			return;
		}
		tf_putrow(s, ncol, sc->out + sc->used);
		sc->used += need;
		if (++sc->rows == maxrows) {
			rc = TF_ROW; // also for a pending row, written without a step
			break;
		}
	}
	sc->rc = rc;
	sc->ncol = sqlite3_column_count(s);
	if (rc == TF_DONE) {
		sc->changes = sqlite3_changes(sqlite3_db_handle(s));
	}
	if (rc == TF_DONE || rc == TF_ROW) {
		sqlite3_reset(s);
	}
}
*/
import "C"

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	_ "github.com/mattn/go-sqlite3" // C SQLite, compiled into the binary: the definitions of the C API above
)

// db is one isolate's SQLite connection: C SQLite (the amalgamation
// github.com/mattn/go-sqlite3 v1.14.53 builds), called through a thin
// binding of the engine's own rather than the driver's types, whose Rows
// give a cgo call and interface values per row, report changes only from
// Exec (which steps once) and convert columns declared BOOLEAN, DATE,
// DATETIME or TIMESTAMP. Here one execution is one cgo call (tf_run:
// bind, step, rows into C memory, reset), rows included unless they
// overflow the row buffer, and values come back as stored. It measured
// faster than the driver's types (README.md, What each step bought).
//
// Statements are prepared once (SQLITE_PREPARE_PERSISTENT) and cached by
// SQL text. A db is used by one goroutine at a time (its isolate's): the
// connection is opened without SQLite's mutex (SQLITE_OPEN_NOMUTEX).
// As with zombiezen.com/go/sqlite, the binding before: extended result
// codes, double-quoted string literals off, SQL after the first
// statement an error.
type db struct {
	path  string
	conn  *C.sqlite3
	stmts map[string]*stmt
	sc    *C.tf_scratch
	buf   []byte
	// params and lists back the parsed parameters of one host call; they
	// are reused, so parameters never outlive the call.
	params []any
	lists  [][]any
}

// stmt is a cached prepared statement (s is nil for SQL without a
// statement, as SQLite prepares it).
type stmt struct {
	sql     string
	s       *C.sqlite3_stmt
	nparams int
	names   []string // JSON-quoted column names + ':'
}

// openDB opens an existing dataset read-write (never creating it) and sets
// the per-connection pragmas every adapter sets (docs/design.md, The dataset):
// busy_timeout 5000 ms and synchronous NORMAL.
func openDB(path string) (*db, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var conn *C.sqlite3
	rc := C.sqlite3_open_v2(cpath, &conn, C.TF_OPEN_READWRITE|C.TF_OPEN_NOMUTEX, nil)
	if rc != C.TF_OK {
		if conn != nil {
			if ext := C.sqlite3_extended_errcode(conn); ext != 0 {
				rc = ext
			}
			C.sqlite3_close(conn)
		}
		return nil, fmt.Errorf("sqlite open %s: sqlite: open %q: %w", path, path, &sqliteError{int(rc), errstr(rc)})
	}
	C.sqlite3_extended_result_codes(conn, 1)
	d := &db{path: path, conn: conn, stmts: map[string]*stmt{}}
	d.sc = (*C.tf_scratch)(C.calloc(1, C.size_t(unsafe.Sizeof(C.tf_scratch{}))))
	d.grow(8, 0, 16<<10)
	for _, op := range []C.int{C.TF_DBCONFIG_DQS_DDL, C.TF_DBCONFIG_DQS_DML} {
		if rc := C.tf_db_config(conn, op, 0); rc != C.TF_OK {
			d.close()
			return nil, fmt.Errorf("sqlite open %s: disable double-quoted string literals: %w", path, d.err(rc))
		}
	}
	for _, pragma := range []string{"PRAGMA busy_timeout = 5000", "PRAGMA synchronous = NORMAL"} {
		cs := C.CString(pragma)
		rc := C.sqlite3_exec(conn, cs, nil, nil, nil)
		C.free(unsafe.Pointer(cs))
		if rc != C.TF_OK {
			err := d.err(rc)
			d.close()
			return nil, fmt.Errorf("sqlite %s: %s: %w", path, pragma, err)
		}
	}
	return d, nil
}

// grow makes the scratch buffers at least this large.
func (d *db) grow(args, text, out int) {
	sc := d.sc
	if args > int(sc.argcap) {
		sc.args = (*C.tf_arg)(C.realloc(unsafe.Pointer(sc.args), C.size_t(args)*C.size_t(unsafe.Sizeof(C.tf_arg{}))))
		sc.argcap = C.int(args)
	}
	if text > int(sc.textcap) {
		sc.text = (*C.char)(C.realloc(unsafe.Pointer(sc.text), C.size_t(text)))
		sc.textcap = C.int(text)
	}
	if out > int(sc.outcap) {
		sc.out = (*C.uchar)(C.realloc(unsafe.Pointer(sc.out), C.size_t(out)))
		sc.outcap = C.int(out)
	}
	if sc.args == nil || (sc.text == nil && text > 0) || sc.out == nil {
		panic("runtime: out of C memory for SQLite scratch buffers")
	}
}

func (d *db) close() error {
	for _, st := range d.stmts {
		C.sqlite3_finalize(st.s)
	}
	d.stmts = nil
	if sc := d.sc; sc != nil {
		C.free(unsafe.Pointer(sc.args))
		C.free(unsafe.Pointer(sc.text))
		C.free(unsafe.Pointer(sc.out))
		C.free(unsafe.Pointer(sc))
		d.sc = nil
	}
	if rc := C.sqlite3_close(d.conn); rc != C.TF_OK {
		return fmt.Errorf("sqlite close %s: %w", d.path, d.err(rc))
	}
	return nil
}

// sqliteError is an error of SQLite: its text for the result code, then
// the connection's message when it adds to it ("SQL logic error: no such
// table: Nowhere"), worded as zombiezen.com/go/sqlite worded them.
type sqliteError struct {
	code int // extended result code
	text string
}

func (e *sqliteError) Error() string { return e.text }

func errstr(rc C.int) string { return C.GoString(C.sqlite3_errstr(rc)) }

// err is the error of result code rc, with the connection's message.
func (d *db) err(rc C.int) *sqliteError {
	text, msg := errstr(rc), C.GoString(C.sqlite3_errmsg(d.conn))
	if msg != "" && msg != text {
		text += ": " + msg
	}
	return &sqliteError{int(rc), text}
}

// stmt returns the cached statement for sql, preparing it the first time.
func (d *db) stmt(sql string) (*stmt, error) {
	if st := d.stmts[sql]; st != nil {
		return st, nil
	}
	csql := C.CString(sql)
	defer C.free(unsafe.Pointer(csql))
	var s *C.sqlite3_stmt
	var tail *C.char
	if rc := C.sqlite3_prepare_v3(d.conn, csql, C.int(len(sql)), C.TF_PREPARE_PERSISTENT, &s, &tail); rc != C.TF_OK {
		err := d.err(rc)
		if off := int(C.sqlite3_error_offset(d.conn)); off >= 0 && off <= len(sql) {
			line, col := linecol(sql[:off])
			return nil, fmt.Errorf("sqlite: prepare %q: %d:%d: %w", sql, line, col, err)
		}
		return nil, fmt.Errorf("sqlite: prepare %q: %w", sql, err)
	}
	if uintptr(unsafe.Pointer(tail))-uintptr(unsafe.Pointer(csql)) != uintptr(len(sql)) {
		C.sqlite3_finalize(s)
		return nil, fmt.Errorf("sqlite: prepare %q: statement has trailing bytes", sql)
	}
	sql = strings.Clone(sql) // the host call's text is reused after it returns
	st := &stmt{sql: sql, s: s, nparams: int(C.sqlite3_bind_parameter_count(s))}
	d.stmts[sql] = st
	return st, nil
}

// linecol is the 1-based line and column after s (tabs to multiples of 8),
// as zombiezen placed a prepare error.
func linecol(s string) (line, col int) {
	line, col = 1, 1
	for _, c := range s {
		switch c {
		case '\n':
			line++
			col = 1
		case '\t':
			col += 8 - (col-1)%8
		default:
			col++
		}
	}
	return line, col
}

// prepare returns the cached statement for sql with params stored in the
// scratch for tf_run's TF_BIND (positional, 1-based).
func (d *db) prepare(sql string, params []any) (*stmt, error) {
	st, err := d.stmt(sql)
	if err != nil {
		return nil, err
	}
	if st.nparams != len(params) {
		return nil, fmt.Errorf("sqlite %q: %d params given, statement has %d", sql, len(params), st.nparams)
	}
	text := 0
	for _, p := range params {
		if s, ok := p.(string); ok {
			text += len(s)
		}
	}
	d.grow(len(params), text, 0)
	args := unsafe.Slice(d.sc.args, len(params))
	var tb []byte
	if text > 0 {
		tb = unsafe.Slice((*byte)(unsafe.Pointer(d.sc.text)), text)[:0]
	}
	for i, p := range params {
		a := &args[i]
		switch v := p.(type) {
		case nil:
			a._type = C.TF_NULL
		case int64:
			a._type, a.i = C.TF_INTEGER, C.sqlite3_int64(v)
		case bool:
			a._type, a.i = C.TF_INTEGER, 0
			if v {
				a.i = 1
			}
		case string:
			a._type, a.n = C.TF_TEXT, C.int(len(v))
			tb = append(tb, v...)
		case float64:
			if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
				a._type, a.i = C.TF_INTEGER, C.sqlite3_int64(v)
			} else {
				a._type, a.f = C.TF_FLOAT, C.double(v)
			}
		default:
			return nil, fmt.Errorf("sqlite %q: param %d is %T, want number, string, boolean or null", sql, i+1, p)
		}
	}
	return st, nil
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
func (d *db) prepareJSON(sql, paramsJSON string) (*stmt, error) {
	params, err := d.parseParams(sql, paramsJSON)
	if err != nil {
		return nil, err
	}
	return d.prepare(sql, params)
}

// maxRowBuf bounds how far the row buffer grows ahead of need: up to it,
// a full buffer doubles so that the next execution fits in one call.
const maxRowBuf = 1 << 20

// execute runs st, its parameters set by prepare, and appends its rows as
// JSON objects (comma-separated; none with C.TF_DISCARD; at most maxrows
// if > 0) to b. It returns the rows appended; d.sc holds the result
// (ncol, changes). Its errors are zombiezen's step errors, "sqlite: step:
// ...", for the caller to name the SQL.
func (d *db) execute(b []byte, st *stmt, flags C.int, maxrows int) ([]byte, int, error) {
	return d.executeAs(b, st, flags, maxrows, false)
}

// executeAs is execute with the rows flat (appendRows) when flat is set.
func (d *db) executeAs(b []byte, st *stmt, flags C.int, maxrows int, flat bool) ([]byte, int, error) {
	sc := d.sc
	n := 0
	for {
		limit := 0
		if maxrows > 0 {
			limit = maxrows - n
		}
		C.tf_run(st.s, flags, C.int(st.nparams), C.int(limit), sc)
		if sc.rows > 0 {
			b = d.appendRows(b, st, n, flat)
			n += int(sc.rows)
		}
		if sc.full != 0 {
			d.grow(0, 0, max(int(sc.need), min(2*int(sc.outcap), maxRowBuf)))
			flags = C.TF_PENDING
			continue
		}
		switch sc.rc {
		case C.TF_DONE, C.TF_ROW:
			return b, n, nil
		}
		err := d.err(sc.rc)
		if st.s != nil {
			C.sqlite3_reset(st.s)
		}
		return b, n, fmt.Errorf("sqlite: step: %w", err)
	}
}

// appendRows appends the rows tf_run wrote to the scratch, n rows having
// been appended before: as JSON objects, or with flat as the bare values
// (each preceded by a comma); integers and floats as numbers, text as
// strings, NULL as null, blobs as strings.
func (d *db) appendRows(b []byte, st *stmt, n int, flat bool) []byte {
	sc := d.sc
	st.columnNames(int(sc.ncol))
	out := unsafe.Slice((*byte)(unsafe.Pointer(sc.out)), int(sc.used))
	p := 0
	for r := range int(sc.rows) {
		if !flat {
			if n+r > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
		}
		for i, name := range st.names {
			if flat {
				b = append(b, ',')
			} else {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, name...)
			}
			t := out[p]
			p++
			switch t {
			case C.TF_INTEGER:
				b = strconv.AppendInt(b, int64(binary.NativeEndian.Uint64(out[p:])), 10)
				p += 8
			case C.TF_FLOAT:
				f := math.Float64frombits(binary.NativeEndian.Uint64(out[p:]))
				p += 8
				if math.IsInf(f, 0) || math.IsNaN(f) {
					b = append(b, "null"...)
				} else {
					b = strconv.AppendFloat(b, f, 'g', -1, 64)
				}
			case C.TF_NULL:
				b = append(b, "null"...)
			default: // text, blob
				l := int(binary.NativeEndian.Uint32(out[p:]))
				p += 4
				b = appendJSONString(b, unsafe.String(unsafe.SliceData(out[p:]), l))
				p += l
			}
		}
		if !flat {
			b = append(b, '}')
		}
	}
	return b
}

// columnNames fills st.names for a result of ncol columns: each name as a
// JSON string followed by ':'.
func (st *stmt) columnNames(ncol int) {
	if len(st.names) == ncol {
		return
	}
	st.names = make([]string, ncol)
	for i := range st.names {
		name := C.GoString(C.sqlite3_column_name(st.s, C.int(i)))
		st.names[i] = string(appendJSONString(nil, name)) + ":"
	}
}

func stepErr(sql string, err error) error {
	return fmt.Errorf("sqlite %q: %w", sql, err)
}

// all runs sql and returns every row in one flat JSON array: first the
// column names, then each row's values in column order, e.g.
// [["id","randomNumber"],1,4174,2,886]. JSON.parse builds such an array
// about 5 times faster than the same rows as objects (1,000 World rows,
// V8 13.6), and the engine library makes the objects from it.
func (d *db) all(sql, paramsJSON string) (string, error) {
	st, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	b := append(d.buf[:0], '[', '[')
	mark := len(b)
	b, _, err = d.executeAs(b, st, C.TF_BIND, 0, true)
	if err != nil {
		return "", stepErr(sql, err)
	}
	// The names are known once the statement ran: put them in front.
	st.columnNames(int(d.sc.ncol))
	head := make([]byte, 0, 16*len(st.names))
	for i, name := range st.names {
		if i > 0 {
			head = append(head, ',')
		}
		head = append(head, name[:len(name)-1]...)
	}
	head = append(head, ']')
	b = append(b, ']')
	b = slices.Insert(b, mark, head...)
	d.buf = b
	return string(b), nil
}

// get runs sql and returns the first row as a JSON object, or "null".
func (d *db) get(sql, paramsJSON string) (string, error) {
	st, err := d.prepareJSON(sql, paramsJSON)
	if err != nil {
		return "", err
	}
	b, err := d.first(d.buf[:0], st)
	if err != nil {
		return "", err
	}
	d.buf = b
	return string(b), nil
}

// first appends the statement's first row (or null; for a statement
// without result columns, its number of changed rows) and resets it.
func (d *db) first(b []byte, st *stmt) ([]byte, error) {
	b, n, err := d.execute(b, st, C.TF_BIND, 1)
	switch {
	case err != nil:
		return nil, stepErr(st.sql, err)
	case n > 0:
	case d.sc.ncol == 0:
		b = strconv.AppendInt(b, int64(d.sc.changes), 10)
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
	st, err := d.prepare(sql, params)
	if err != nil {
		return 0, err
	}
	if _, _, err := d.execute(nil, st, C.TF_BIND|C.TF_DISCARD, 0); err != nil {
		return 0, stepErr(sql, err)
	}
	return int(d.sc.changes), nil
}

// execTx runs BEGIN IMMEDIATE, COMMIT or ROLLBACK (cached like any
// statement); its errors are unnamed, as zombiezen's sqlitex returned them.
func (d *db) execTx(sql string) error {
	st, err := d.prepare(sql, nil)
	if err != nil {
		return err
	}
	_, _, err = d.execute(nil, st, C.TF_BIND|C.TF_DISCARD, 0)
	return err
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
		st, err := d.prepare(sql, params)
		if err != nil {
			return "", fmt.Errorf("batch item %d: %w", i, err)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b, err = d.first(b, st)
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
	if err := d.execTx("BEGIN IMMEDIATE"); err != nil {
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
	if C.sqlite3_get_autocommit(d.conn) != 0 {
		return
	}
	if *errp == nil {
		if *errp = d.execTx("COMMIT"); *errp == nil || C.sqlite3_get_autocommit(d.conn) != 0 {
			return
		}
	}
	if err := d.execTx("ROLLBACK"); err != nil {
		*errp = fmt.Errorf("%w; ROLLBACK: %w", *errp, err)
	}
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal in ASCII: other
// characters as \uXXXX escapes (UTF-16 surrogate pairs above U+FFFF),
// invalid UTF-8 as \ufffd. V8 then makes the JSON text a one-byte string,
// and JSON.parse makes one-byte strings of every value that fits one
// (issue 16, item 2): one non-Latin-1 message no longer widens the rest.
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
		b = append(b, s[start:i]...)
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(appendU(b, r1), r2)
		} else {
			b = appendU(b, r) // U+FFFD for invalid UTF-8 too
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendU appends the escape \uXXXX of the UTF-16 code unit r.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}
