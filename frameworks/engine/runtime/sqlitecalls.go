package runtime

// #include "tfsqlite.h"
import "C"

import (
	"fmt"
	"slices"
	"strconv"
)

// prepareJSON is prepare with the parameters given as a JSON array.
func (d *db) prepareJSON(sql, paramsJSON string) (*stmt, error) {
	params, err := d.parseParams(sql, paramsJSON)
	if err != nil {
		return nil, err
	}
	return d.prepare(sql, params)
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
