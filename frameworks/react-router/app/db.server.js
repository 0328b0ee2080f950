// The dataset, opened once per process when the server build is imported:
// node:sqlite (DatabaseSync) on env DATABASE_PATH, prepared statements, and
// the TechEmpower row rules shared by the db, queries, updates and fortunes
// routes and the /ssr and /stream pages. The `.server` suffix keeps this module out of the browser bundle.
//
// Environment:
//
//   DATABASE_PATH  required: the dataset's SQLite file (World, Fortune); it
//                  must exist, the server never creates it
//
// The one connection sets busy_timeout=5000 (ms) and synchronous=NORMAL
// (docs/design.md, The dataset: the same per-connection pragmas for every
// adapter). node:sqlite is synchronous, so every query runs on the event
// loop, one at a time; updates are written in one BEGIN IMMEDIATE ... COMMIT
// transaction. The connection is closed when the process exits (both
// variants' servers exit on SIGTERM), checkpointing its WAL.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** World ids are 1..WORLD_ROWS; randomNumber is drawn from the same range (TFB rules, the dataset). */
const WORLD_ROWS = 10000;

/** Upper clamp of the queries and updates row count (TFB rules, queries test: clamp to 1..500). */
const MAX_QUERIES = 500;

/** Upper clamp of a page's World rows (the page contract: /ssr?rows=N, N clamped to 1..10000). */
const MAX_PAGE_ROWS = 10000;

/** Upper clamp of the streamed page's parts (the stream contract: /stream?rows=N&parts=K, K clamped to 1..16). */
const MAX_STREAM_PARTS = 16;

/** The streamed page's parts when `parts` is missing or not a number (the stream contract). */
const DEFAULT_STREAM_PARTS = 4;

/** The row the fortunes test adds at request time (TFB rules, fortunes test). */
const EXTRA_FORTUNE = 'Additional fortune added at request time.';

/**
 * Opens the dataset at env DATABASE_PATH (which must exist), sets the
 * per-connection pragmas and prepares every statement. Throws an Error
 * naming the variable or the path and the step that failed (a missing file,
 * a missing table).
 */
function openDatabase(env) {
  if (!env.DATABASE_PATH) throw new Error("DATABASE_PATH is not set (the dataset's SQLite file)");
  const path = resolve(env.DATABASE_PATH);
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
  return {
    db,
    selectWorld: prepare('SELECT id, randomNumber FROM World WHERE id = ?'),
    selectFortunes: prepare('SELECT id, message FROM Fortune'),
    selectWorldRange: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id'),
    selectWorldBetween: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id'),
    updateWorld: prepare('UPDATE World SET randomNumber = ? WHERE id = ?'),
  };
}

const { db, selectWorld, selectFortunes, selectWorldRange, selectWorldBetween, updateWorld } = openDatabase(process.env);

process.once('exit', () => {
  if (db.isOpen) db.close();
});

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
function randomId() {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from the request's query string: TFB rules,
 * queries test: clamp to 1..500; a missing, empty or non-numeric value
 * means 1 (an optional sign and digits only, as Go's strconv.Atoi in
 * go-stdlib).
 */
export function queryCount(request) {
  const url = request.url;
  const q = url.indexOf('?');
  if (q === -1) return 1;
  const raw = new URLSearchParams(url.slice(q + 1)).get('queries');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_QUERIES);
}

/**
 * A page's World row count from the request's `rows` query parameter (the
 * first when repeated): the page contract clamps it to 1..10000; a missing,
 * empty or non-numeric value means 1 (an optional sign and digits only, as
 * queryCount).
 */
export function pageRows(request) {
  const raw = new URL(request.url).searchParams.get('rows');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_PAGE_ROWS);
}

/**
 * World rows with ids 1..n in id order as [{id, randomNumber}], read by one
 * query on every call (the page contract: no cache of any kind).
 */
export function worldRange(n) {
  return selectWorldRange.all(n).map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/**
 * The streamed page's part count from the request's `parts` query parameter
 * (the first when repeated) for a page of n rows: clamped to 1..16, a
 * missing, empty or non-numeric value means 4, and never more than n (the
 * stream contract, ISSUE-36-DESIGN.md).
 */
export function streamParts(request, n) {
  const raw = new URL(request.url).searchParams.get('parts');
  let k = DEFAULT_STREAM_PARTS;
  if (raw !== null && /^[+-]?\d+$/.test(raw)) k = Math.min(Math.max(Number(raw), 1), MAX_STREAM_PARTS);
  return Math.min(k, n);
}

/**
 * The id ranges of a page of n rows in k parts, as [{part, lo, hi}]: part i
 * holds ids floor(i*n/k)+1 .. floor((i+1)*n/k) (the stream contract).
 */
export function partRanges(n, k) {
  const ranges = new Array(k);
  for (let i = 0; i < k; i++) {
    ranges[i] = { part: i, lo: Math.floor((i * n) / k) + 1, hi: Math.floor(((i + 1) * n) / k) };
  }
  return ranges;
}

/**
 * World rows with ids lo..hi in id order as [{id, randomNumber}], read by
 * their own query on every call (a part of the streamed page; no cache).
 */
export function worldBetween(lo, hi) {
  return selectWorldBetween.all(lo, hi).map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/**
 * The World row with the given id as {id, randomNumber} (integers). Throws
 * an Error naming the id when the row does not exist.
 */
function loadWorld(id) {
  const row = selectWorld.get(id);
  if (row === undefined) throw new Error(`World id ${id}: no such row`);
  return { id: row.id, randomNumber: row.randomNumber };
}

/** One random World row (TFB db test). */
export function randomWorld() {
  return loadWorld(randomId());
}

/** n random World rows, each fetched by its own statement execution (TFB queries test). */
export function randomWorlds(n) {
  const rows = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = loadWorld(randomId());
  return rows;
}

/**
 * n random World rows, each read by its own query, given a new randomNumber
 * in 1..10000 different from the one read, and written back by one UPDATE
 * per row inside a single IMMEDIATE transaction before returning (TFB
 * updates test). Returns the rows with their new values; throws an Error
 * (after rolling back) when the write fails.
 */
export function updateWorlds(n) {
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

/** Byte-order (UTF-8) comparison of two fortunes' messages. */
function compareMessages(a, b) {
  return Buffer.compare(Buffer.from(a.message, 'utf8'), Buffer.from(b.message, 'utf8'));
}

/**
 * Every Fortune row read now, plus the request-time row {id: 0}, sorted by
 * message in UTF-8 byte order in code (TFB fortunes test), as
 * [{id, message}].
 */
export function sortedFortunes() {
  const list = selectFortunes.all().map((r) => ({ id: r.id, message: r.message }));
  list.push({ id: 0, message: EXTRA_FORTUNE });
  list.sort(compareMessages);
  return list;
}
