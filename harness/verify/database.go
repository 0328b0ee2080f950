package verify

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// Database is a framework's database copy as verification reads and
// changes it: OpenDatabase's on this host, harness/agent's on the server
// host (issue 18).
type Database interface {
	// World returns the World table as id -> randomNumber.
	World(ctx context.Context) (map[int64]int64, error)
	// InsertFortune adds a Fortune row with an unused id (one above the
	// largest) and returns the id.
	InsertFortune(ctx context.Context, message string) (int, error)
	// DeleteFortune removes the Fortune row id.
	DeleteFortune(ctx context.Context, id int) error
	// SetRandomNumber sets World row id's randomNumber to n.
	SetRandomNumber(ctx context.Context, id int, n int64) error
	// Where names the copy in errors: its path (HOST:PATH on another host).
	Where() string
	Close() error
}

// OpenDatabase opens the SQLite database copy at path on this host
// (openDatabase's settings); errors name the file.
func OpenDatabase(path string) (Database, error) {
	db, err := openDatabase(path)
	if err != nil {
		return nil, err
	}
	return sqlDatabase{db, path}, nil
}

// sqlDatabase is a Database on this host.
type sqlDatabase struct {
	db   *sql.DB
	path string
}

func (d sqlDatabase) World(ctx context.Context) (map[int64]int64, error) {
	return readWorld(ctx, d.db, d.path)
}

func (d sqlDatabase) InsertFortune(ctx context.Context, message string) (int, error) {
	f, err := insertFortune(ctx, d.db, d.path, message)
	return f.ID, err
}

func (d sqlDatabase) DeleteFortune(ctx context.Context, id int) error {
	return deleteFortune(ctx, d.db, d.path, id)
}

func (d sqlDatabase) SetRandomNumber(ctx context.Context, id int, n int64) error {
	return setRandomNumber(ctx, d.db, d.path, id, n)
}

func (d sqlDatabase) Where() string { return d.path }
func (d sqlDatabase) Close() error  { return d.db.Close() }

// openDatabase opens the framework's SQLite copy with every adapter's
// settings (docs/design.md, The dataset: busy_timeout 5000 ms, synchronous
// NORMAL); a missing path is an error, not an empty database.
func openDatabase(path string) (*sql.DB, error) {
	if path == "" {
		return nil, fmt.Errorf("no database path given (Target.DatabasePath)")
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// readWorld returns the World table as id -> randomNumber.
func readWorld(ctx context.Context, db *sql.DB, path string) (map[int64]int64, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, randomNumber FROM World")
	if err != nil {
		return nil, fmt.Errorf("read World from %s: %w", path, err)
	}
	defer rows.Close()
	world := make(map[int64]int64, worldMax)
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("read World from %s: %w", path, err)
		}
		world[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read World from %s: %w", path, err)
	}
	return world, nil
}

// insertFortune adds a Fortune row with an unused id (one above the
// largest) and returns it.
func insertFortune(ctx context.Context, db *sql.DB, path, message string) (fortune, error) {
	var id int
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) + 1 FROM Fortune").Scan(&id); err != nil {
		return fortune{}, fmt.Errorf("find a free Fortune id in %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO Fortune (id, message) VALUES (?, ?)", id, message); err != nil {
		return fortune{}, fmt.Errorf("insert Fortune row %d into %s: %w", id, path, err)
	}
	return fortune{ID: id, Message: message}, nil
}

// deleteFortune removes the Fortune row id.
func deleteFortune(ctx context.Context, db *sql.DB, path string, id int) error {
	if _, err := db.ExecContext(ctx, "DELETE FROM Fortune WHERE id = ?", id); err != nil {
		return fmt.Errorf("delete Fortune row %d from %s: %w", id, path, err)
	}
	return nil
}
