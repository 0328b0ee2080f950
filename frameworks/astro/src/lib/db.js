// The dataset (docs/tfb-rules.md, The dataset) for the astro adapter: one
// node:sqlite connection per process, opened on first use from env
// DATABASE_PATH (the file must exist; it is never created), with the
// per-connection pragmas every tfbench adapter sets: busy_timeout=5000 (ms)
// and synchronous=NORMAL (docs/design.md, The dataset). Every statement is
// prepared once. node:sqlite is synchronous, so queries run on the event
// loop one at a time; updates are written in one BEGIN IMMEDIATE ... COMMIT
// transaction. SIGTERM or SIGINT closes the connection (checkpointing its
// WAL) and exits.
//
// The module is bundled into the server build; ES module evaluation makes
// the connection a single instance for the whole process.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** World ids are 1..WORLD_ROWS; randomNumber is drawn from the same range (TFB rules, the dataset). */
const WORLD_ROWS = 10000;

/** Upper clamp of the queries and updates row count (TFB rules, queries test: clamp to 1..500). */
const MAX_QUERIES = 500;

/** Upper clamp of the page test's rows parameter (tfbench page contract, docs/ssr.md: clamp to 1..10000). */
const MAX_PAGE_ROWS = WORLD_ROWS;

/** The row the fortunes test adds at request time (TFB rules, fortunes test). */
const EXTRA_FORTUNE = 'Additional fortune added at request time.';

let store;

/**
 * Opens the dataset at env DATABASE_PATH, sets the pragmas and prepares
 * every statement. Throws an Error naming the variable or the path and the
 * step that failed (unset variable, missing file, missing table).
 */
function openDatabase() {
  const raw = process.env.DATABASE_PATH;
  if (!raw) throw new Error("DATABASE_PATH is not set (the dataset's SQLite file)");
  const path = resolve(raw);
  if (!existsSync(path)) throw new Error(`DATABASE_PATH: ${path} does not exist`);
  let db;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA busy_timeout=5000');
    db.exec('PRAGMA synchronous=NORMAL');
  } catch (err) {
    throw new Error(`open ${path}: ${err.message}`);
  }
  const prepare = (sql) => {
    try {
      return db.prepare(sql);
    } catch (err) {
      db.close();
      throw new Error(`${path}: prepare ${JSON.stringify(sql)}: ${err.message}`);
    }
  };
  const s = {
    db,
    selectWorld: prepare('SELECT id, randomNumber FROM World WHERE id = ?'),
    selectFortunes: prepare('SELECT id, message FROM Fortune'),
    selectWorlds: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id'),
    selectWorldBetween: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id'),
    updateWorld: prepare('UPDATE World SET randomNumber = ? WHERE id = ?'),
  };
  const close = () => {
    try {
      db.close();
    } catch (err) {
      console.error(`astro: close database ${path}: ${err.message}`);
    }
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  return s;
}

/** The process's one connection and its prepared statements, opened on first call. */
function database() {
  if (store === undefined) store = openDatabase();
  return store;
}

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
function randomId() {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from a URL's search params: TFB rules,
 * queries test: clamp to 1..500; a missing, empty or non-numeric value
 * means 1 (an optional sign and digits only, as node-http and go-stdlib).
 */
export function queryCount(searchParams) {
  const raw = searchParams.get('queries');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_QUERIES);
}

/**
 * The page test's row count from a URL's search params (tfbench page
 * contract, docs/ssr.md): a missing, empty or non-numeric value means 1 (an
 * optional sign and digits only, as queryCount); clamped to 1..10000.
 */
export function pageRows(searchParams) {
  const raw = searchParams.get('rows');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_PAGE_ROWS);
}

/** Reads World row id as {id, randomNumber}; throws an Error naming the id when it is missing. */
function loadWorld(selectWorld, id) {
  const row = selectWorld.get(id);
  if (row === undefined) throw new Error(`World id ${id}: no such row`);
  return { id: row.id, randomNumber: row.randomNumber };
}

/** TFB db test: one random World row as {id, randomNumber}. */
export function randomWorld() {
  return loadWorld(database().selectWorld, randomId());
}

/** TFB queries test: n random World rows, each fetched by its own statement execution. */
export function randomWorlds(n) {
  const { selectWorld } = database();
  const rows = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = loadWorld(selectWorld, randomId());
  return rows;
}

/**
 * TFB updates test: n random World rows, each read by its own query, given a
 * new randomNumber in 1..10000 different from the one read, and written back
 * by one UPDATE per row inside a single IMMEDIATE transaction before
 * returning. Throws an Error ("update World: ...") when the write fails,
 * after rolling back.
 */
export function updateWorlds(n) {
  const { db, updateWorld } = database();
  const rows = randomWorlds(n);
  for (const row of rows) {
    const old = row.randomNumber;
    while (row.randomNumber === old) row.randomNumber = randomId();
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const row of rows) updateWorld.run(row.randomNumber, row.id);
    db.exec('COMMIT');
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw new Error(`update World: ${err.message}`);
  }
  return rows;
}

/**
 * tfbench page test: World rows 1..n in id order as [{id, randomNumber}],
 * read now by one query (no cache: a changed row shows in the next page).
 */
export function worldRange(n) {
  return database().selectWorlds.all(n);
}

/** Upper clamp and default of the stream page's parts parameter (ISSUE-36 stream contract, docs/ssr.md). */
const MAX_STREAM_PARTS = 16;
const DEFAULT_STREAM_PARTS = 4;

/**
 * The stream page's parts from a URL's search params: rows as pageRows,
 * parts missing or non-numeric → 4, clamped to 1..16 and to rows. Returns
 * [{part, first, last}] with part k holding World ids
 * floor(k*N/K)+1 .. floor((k+1)*N/K) (tfbench stream contract, docs/ssr.md).
 */
export function streamParts(searchParams) {
  const n = pageRows(searchParams);
  const raw = searchParams.get('parts');
  let k = raw === null || !/^[+-]?\d+$/.test(raw) ? DEFAULT_STREAM_PARTS : Number(raw);
  k = Math.min(Math.max(k, 1), MAX_STREAM_PARTS, n);
  const parts = [];
  for (let i = 0; i < k; i++) {
    parts.push({ part: i, first: Math.floor((i * n) / k) + 1, last: Math.floor(((i + 1) * n) / k) });
  }
  return parts;
}

/**
 * tfbench stream page: World rows first..last in id order as
 * [{id, randomNumber}], read now by one query (no cache).
 */
export function worldBetween(first, last) {
  return database().selectWorldBetween.all(first, last);
}

/** Byte-order (UTF-8) comparison of two fortunes' messages. */
function compareMessages(a, b) {
  return Buffer.compare(Buffer.from(a.message, 'utf8'), Buffer.from(b.message, 'utf8'));
}

/**
 * TFB fortunes test: every Fortune row read now, the request-time row
 * {id: 0, message: EXTRA_FORTUNE} added, sorted by message in UTF-8 byte
 * order in code (not ORDER BY). Returns [{id, message}]; escaping is the
 * template's job.
 */
export function fortunes() {
  const list = database().selectFortunes.all().map((r) => ({ id: r.id, message: r.message }));
  list.push({ id: 0, message: EXTRA_FORTUNE });
  list.sort(compareMessages);
  return list;
}
