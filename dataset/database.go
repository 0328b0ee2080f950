package dataset

import (
	"context"
	"database/sql"
	"fmt"
	"os"
)

// Database is a framework's database copy as verification reads and
// changes it: Open's on this host, harness/agent's on a server host of its
// own (each operation a request to the agent there).
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

// Open opens the SQLite database copy at path on this host with every
// adapter's settings (docs/design.md, The dataset: busy_timeout 5000 ms,
// synchronous NORMAL); a missing path is an error, not an empty database.
func Open(path string) (Database, error) {
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
	return sqlDatabase{db, path}, nil
}

// sqlDatabase is a Database on this host; path names the file in errors.
type sqlDatabase struct {
	db   *sql.DB
	path string
}

func (d sqlDatabase) World(ctx context.Context) (map[int64]int64, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT id, randomNumber FROM World")
	if err != nil {
		return nil, fmt.Errorf("read World from %s: %w", d.path, err)
	}
	defer rows.Close()
	world := make(map[int64]int64, WorldRows)
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("read World from %s: %w", d.path, err)
		}
		world[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read World from %s: %w", d.path, err)
	}
	return world, nil
}

func (d sqlDatabase) InsertFortune(ctx context.Context, message string) (int, error) {
	var id int
	if err := d.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) + 1 FROM Fortune").Scan(&id); err != nil {
		return 0, fmt.Errorf("find a free Fortune id in %s: %w", d.path, err)
	}
	if _, err := d.db.ExecContext(ctx, "INSERT INTO Fortune (id, message) VALUES (?, ?)", id, message); err != nil {
		return 0, fmt.Errorf("insert Fortune row %d into %s: %w", id, d.path, err)
	}
	return id, nil
}

func (d sqlDatabase) DeleteFortune(ctx context.Context, id int) error {
	if _, err := d.db.ExecContext(ctx, "DELETE FROM Fortune WHERE id = ?", id); err != nil {
		return fmt.Errorf("delete Fortune row %d from %s: %w", id, d.path, err)
	}
	return nil
}

func (d sqlDatabase) SetRandomNumber(ctx context.Context, id int, n int64) error {
	if _, err := d.db.ExecContext(ctx, "UPDATE World SET randomNumber = ? WHERE id = ?", n, id); err != nil {
		return fmt.Errorf("set World row %d's randomNumber to %d in %s: %w", id, n, d.path, err)
	}
	return nil
}

func (d sqlDatabase) Where() string { return d.path }
func (d sqlDatabase) Close() error  { return d.db.Close() }
