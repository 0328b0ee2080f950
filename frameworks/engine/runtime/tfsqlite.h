// The C side of the engine's SQLite binding (sqlite.go): the declarations
// every cgo preamble of the package includes, so that the types and
// constants have one definition. Function definitions stay in sqlite.go.
#ifndef TF_SQLITE_H
#define TF_SQLITE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The part of SQLite's C API the engine calls. The definitions are C
// SQLite's amalgamation as github.com/mattn/go-sqlite3 compiles it into
// the binary (sqlite.go imports it for that; with its libsqlite3 build tag,
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

#endif
