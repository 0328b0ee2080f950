// The dataset for the nextjs adapter: one node:sqlite connection per process,
// its prepared statements, and the TFB query helpers shared by the route
// handlers, the fortunes page and the World-table pages (/ssr, /isr/N,
// /stream).
//
// Server-only: the 'server-only' import (interpreted by Next.js itself, no
// package needed) makes the build fail if a client component imports this
// module. node:sqlite is a Node built-in, so Next.js leaves the import to
// Node (no serverExternalPackages entry needed).
//
// Next.js compiles each route into its own entry, so a plain module-level
// variable could in principle be evaluated once per entry. The connection is
// therefore kept on globalThis under a Symbol.for key: opened on first use,
// once per process, whichever route asks first. It sets busy_timeout=5000
// (ms) and synchronous=NORMAL (docs/design.md, The dataset: the same
// per-connection pragmas for every adapter) and is closed on process exit
// (checkpointing its WAL).

import 'server-only';
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

/** The globalThis key of the per-process store. */
const STORE = Symbol.for('tfbench.nextjs.store');

/**
 * Opens DATABASE_PATH (which must exist), sets the per-connection pragmas and
 * prepares every statement. Throws an Error naming the variable or path and
 * the step that failed (unset, a missing file, a missing table).
 */
function openStore() {
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
  const store = {
    db,
    selectWorld: prepare('SELECT id, randomNumber FROM World WHERE id = ?'),
    selectFortunes: prepare('SELECT id, message FROM Fortune'),
    selectWorldRange: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id'),
    selectWorldBetween: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id'),
    updateWorld: prepare('UPDATE World SET randomNumber = ? WHERE id = ?'),
  };
  process.once('exit', () => {
    try {
      if (db.isOpen) db.close();
    } catch (err) {
      console.error(`nextjs: close database ${path}: ${err.message}`);
    }
  });
  console.error(`nextjs: opened database ${path}, node ${process.version}`);
  return store;
}

/** The per-process store, opened on first call (see openStore for errors). */
function store() {
  return (globalThis[STORE] ??= openStore());
}

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
function randomId() {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from the raw `queries` value (null when
 * absent): TFB rules, queries test: clamp to 1..500; a missing, empty or
 * non-numeric value means 1 (an optional sign and digits only, as Go's
 * strconv.Atoi in go-stdlib).
 */
export function queryCount(raw) {
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_QUERIES);
}

/**
 * A page's World row count from the raw `rows` value (null or undefined when
 * absent, the first value when repeated): the page contract clamps it to
 * 1..10000; a missing, empty or non-numeric value means 1 (an optional sign
 * and digits only, as queryCount).
 */
export function pageRows(raw) {
  if (Array.isArray(raw)) raw = raw[0];
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_PAGE_ROWS);
}

/**
 * World rows with ids 1..n in id order as [{id, randomNumber}] (plain
 * objects, so they can be a client component's props), read by one query on
 * every call (the page contract: no cache of any kind).
 */
export function worldRange(n) {
  return store().selectWorldRange.all(n).map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/**
 * The streamed page's part count from the raw `parts` value (as pageRows
 * takes `rows`) for a page of n rows: clamped to 1..16, a missing, empty or
 * non-numeric value means 4, and never more than n (the stream contract,
 * ISSUE-36-DESIGN.md).
 */
export function streamParts(raw, n) {
  if (Array.isArray(raw)) raw = raw[0];
  let k = DEFAULT_STREAM_PARTS;
  if (typeof raw === 'string' && /^[+-]?\d+$/.test(raw)) k = Math.min(Math.max(Number(raw), 1), MAX_STREAM_PARTS);
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
  return store().selectWorldBetween.all(lo, hi).map((r) => ({ id: r.id, randomNumber: r.randomNumber }));
}

/** One random World row as {id, randomNumber}; throws if the row is missing. */
export function randomWorld() {
  const id = randomId();
  const row = store().selectWorld.get(id);
  if (row === undefined) throw new Error(`World id ${id}: no such row`);
  return { id: row.id, randomNumber: row.randomNumber };
}

/** n random World rows, each by its own statement execution (TFB rules, queries test). */
export function randomWorlds(n) {
  const rows = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = randomWorld();
  return rows;
}

/**
 * TFB updates test: n random World rows, each read by its own query, given a
 * new randomNumber in 1..10000 different from the one read, and written back
 * by one UPDATE per row inside a single IMMEDIATE transaction. Returns the
 * updated rows; throws an Error naming the failed step (rolled back).
 */
export function updateWorlds(n) {
  const rows = randomWorlds(n);
  for (const row of rows) {
    const old = row.randomNumber;
    while (row.randomNumber === old) row.randomNumber = randomId();
  }
  const { db, updateWorld } = store();
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
 * TFB fortunes test: every Fortune row as {id, message}, read on this call,
 * plus the request-time row {id: 0}, sorted by message in UTF-8 byte order
 * in code (not ORDER BY).
 */
export function fortunes() {
  const list = store().selectFortunes.all().map((r) => ({ id: r.id, message: r.message }));
  list.push({ id: 0, message: 'Additional fortune added at request time.' });
  list.sort(compareMessages);
  return list;
}
