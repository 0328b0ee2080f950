package runtime

/*
#include "tfsqlite.h"

// tf_db_config sets an int option (sqlite3_db_config is variadic, which
// cgo cannot call).
static int tf_db_config(sqlite3 *db, int op, int v) {
	return sqlite3_db_config(db, op, v, (int *)0);
}

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
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	_ "github.com/mattn/go-sqlite3" // C SQLite, compiled into the binary: the definitions of the C API tfsqlite.h declares
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
