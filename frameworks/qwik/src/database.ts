/**
 * The dataset (docs/tfb-rules.md, The dataset: World(id, randomNumber),
 * Fortune(id, message)) through node:sqlite, one synchronous connection per
 * process with every statement prepared once.
 *
 * Server-only: imported by the node-server entry (which opens the database
 * at startup) and by route handlers (onGet, routeLoader$), which the Qwik
 * optimizer strips from the client build; nothing here reaches the browser.
 *
 * Environment:
 *
 *   DATABASE_PATH  required: the dataset's SQLite file; it must exist, this
 *                  module never creates it
 *
 * The connection sets busy_timeout=5000 (ms) and synchronous=NORMAL
 * (docs/design.md, The dataset: the same per-connection pragmas for every
 * adapter). node:sqlite is synchronous, so every query runs on the event
 * loop, one at a time; updates are written in one BEGIN IMMEDIATE ... COMMIT
 * transaction.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** One World row: id and randomNumber, both in 1..WORLD_ROWS. */
export interface World {
  id: number;
  randomNumber: number;
}

/** One Fortune row; id 0 is the fortune added at request time. */
export interface Fortune {
  id: number;
  message: string;
}

/** World ids are 1..WORLD_ROWS; randomNumber is drawn from the same range (TFB rules, the dataset). */
const WORLD_ROWS = 10000;

/** Upper clamp of the queries and updates row count (TFB rules, queries test: clamp to 1..500). */
const MAX_QUERIES = 500;

/** Upper clamp of the page test's ?rows= count (docs/ssr.md, The page: 1..10000). */
const MAX_ROWS = 10000;

interface Store {
  path: string;
  db: DatabaseSync;
  selectWorld: StatementSync;
  selectFortunes: StatementSync;
  updateWorld: StatementSync;
  selectWorldRange: StatementSync;
  selectWorldBetween: StatementSync;
}

let store: Store | undefined;

/**
 * Opens the database at DATABASE_PATH once per process (later calls return
 * the open connection), sets the per-connection pragmas and prepares every
 * statement. Throws an Error naming the variable or path and the step that
 * failed (unset variable, missing file, missing table).
 */
export function openDatabase(): Store {
  if (store !== undefined) return store;
  const raw = process.env.DATABASE_PATH;
  if (!raw) throw new Error("DATABASE_PATH is not set (the dataset's SQLite file)");
  const path = resolve(raw);
  if (!existsSync(path)) throw new Error(`DATABASE_PATH: ${path} does not exist`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA busy_timeout=5000');
    db.exec('PRAGMA synchronous=NORMAL');
  } catch (err) {
    throw new Error(`open ${path}: ${(err as Error).message}`);
  }
  const prepare = (sql: string): StatementSync => {
    try {
      return db.prepare(sql);
    } catch (err) {
      db.close();
      throw new Error(`${path}: prepare ${JSON.stringify(sql)}: ${(err as Error).message}`);
    }
  };
  store = {
    path,
    db,
    selectWorld: prepare('SELECT id, randomNumber FROM World WHERE id = ?'),
    selectFortunes: prepare('SELECT id, message FROM Fortune'),
    updateWorld: prepare('UPDATE World SET randomNumber = ? WHERE id = ?'),
    selectWorldRange: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id'),
    selectWorldBetween: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id'),
  };
  return store;
}

/** Closes the connection if open (checkpointing its WAL); a later openDatabase opens it again. */
export function closeDatabase(): void {
  const s = store;
  store = undefined;
  s?.db.close();
}

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
function randomId(): number {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from the request's query string: TFB rules,
 * queries test: clamp to 1..500; a missing, empty or non-numeric value means
 * 1 (an optional sign and digits only, as Go's strconv.Atoi in go-stdlib).
 */
export function queryCount(query: URLSearchParams): number {
  const raw = query.get('queries');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_QUERIES);
}

/**
 * The page test's row count from ?rows=: clamped to 1..10000; a missing,
 * empty or non-numeric value means 1 (docs/ssr.md, The page; parsed as
 * queryCount parses ?queries=).
 */
export function rowCount(query: URLSearchParams): number {
  const raw = query.get('rows');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_ROWS);
}

/** Reads World row id; throws an Error naming the id when the row is missing. */
function loadWorld(s: Store, id: number): World {
  const row = s.selectWorld.get(id) as World | undefined;
  if (row === undefined) throw new Error(`${s.path}: World id ${id}: no such row`);
  return { id: row.id, randomNumber: row.randomNumber };
}

/** Reads n random World rows, each by its own execution of the prepared SELECT (TFB rules, queries test). */
function loadWorlds(s: Store, n: number): World[] {
  const rows = new Array<World>(n);
  for (let i = 0; i < n; i++) rows[i] = loadWorld(s, randomId());
  return rows;
}

/** TFB db test: one random World row. */
export function randomWorld(): World {
  return loadWorld(openDatabase(), randomId());
}

/** TFB queries test: n random World rows (n already clamped by queryCount). */
export function randomWorlds(n: number): World[] {
  return loadWorlds(openDatabase(), n);
}

/**
 * TFB updates test: n random World rows, each read by its own query, given a
 * new randomNumber in 1..10000 different from the one read, and written back
 * by one UPDATE per row inside a single IMMEDIATE transaction before
 * returning. Returns the rows with their new values; throws an Error naming
 * the database when the write fails (the transaction is rolled back).
 */
export function updateWorlds(n: number): World[] {
  const s = openDatabase();
  const rows = loadWorlds(s, n);
  for (const row of rows) {
    const old = row.randomNumber;
    while (row.randomNumber === old) row.randomNumber = randomId();
  }
  s.db.exec('BEGIN IMMEDIATE');
  try {
    for (const row of rows) s.updateWorld.run(row.randomNumber, row.id);
    s.db.exec('COMMIT');
  } catch (err) {
    if (s.db.isTransaction) s.db.exec('ROLLBACK');
    throw new Error(`${s.path}: update World: ${(err as Error).message}`);
  }
  return rows;
}

/**
 * The page test's rows: World ids 1..n in id order, read by ONE execution of
 * the prepared range SELECT on every call (docs/ssr.md, The page: no cache of any kind).
 */
export function worldRange(n: number): World[] {
  const rows = openDatabase().selectWorldRange.all(n) as unknown as World[];
  return rows.map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/**
 * The stream page's rows of one part: World ids first..last in id order,
 * read by one execution of the prepared SELECT on every call (no cache).
 */
export function worldBetween(first: number, last: number): World[] {
  const rows = openDatabase().selectWorldBetween.all(first, last) as unknown as World[];
  return rows.map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/** Every Fortune row, in the table's order (the fortunes page sorts them). */
export function allFortunes(): Fortune[] {
  const rows = openDatabase().selectFortunes.all() as unknown as Fortune[];
  return rows.map((r) => ({ id: r.id, message: r.message }));
}
