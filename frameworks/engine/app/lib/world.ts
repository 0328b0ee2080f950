// World table helpers shared by the db, queries, updates and page routes (docs/tfb-rules.md, The dataset).
import { db, request } from "engine";

/** A World row as TFB returns it. */
export interface World {
  id: number;
  randomNumber: number;
}

/** World ids are 1..WORLD_ROWS; randomNumber is drawn from the same range (TFB rules, the dataset). */
export const WORLD_ROWS = 10000;

/** Upper clamp of the queries and updates row count (TFB rules, queries test: clamp to 1..500). */
export const MAX_QUERIES = 500;

/** Upper clamp of the page test's ?rows= count (docs/ssr.md, The page: 1..10000). */
export const MAX_ROWS = 10000;

/** The page test's one statement: World rows 1..? in id order (docs/ssr.md, The page). */
export const SELECT_WORLD_RANGE = "SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id";

/** The statement that reads one World row by id. */
export const SELECT_WORLD = "SELECT id, randomNumber FROM World WHERE id = ?";

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
export function randomId(): number {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from ?queries=: TFB rules, queries test: clamp to 1..500; a missing, empty or
 * non-numeric value means 1 (an optional sign and digits only, as node-http and go-stdlib parse it).
 */
export function queryCount(): number {
  const raw = request.query("queries");
  if (!/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return n > MAX_QUERIES ? MAX_QUERIES : n;
}

/**
 * The page test's row count from ?rows=: clamped to 1..MAX_ROWS; a missing, empty or non-numeric value means 1
 * (docs/ssr.md, The page; parsed as queryCount parses ?queries=).
 */
export function rowCount(): number {
  const raw = request.query("rows");
  if (!/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return n > MAX_ROWS ? MAX_ROWS : n;
}

/**
 * Reads n random World rows, each by its own execution of SELECT_WORLD (TFB queries test), in one host crossing.
 * Throws an Error naming the id of a row that does not exist.
 */
export function randomWorlds(n: number): World[] {
  const ids: number[][] = new Array(n);
  for (let i = 0; i < n; i++) ids[i] = [randomId()];
  const rows = db.batch<World>(SELECT_WORLD, ids);
  for (let i = 0; i < n; i++) {
    if (rows[i] === null) throw new Error(`World id ${ids[i][0]}: no such row`);
  }
  return rows as World[];
}

/** The stream page's statement: World rows ?..? in id order, one part (docs/ssr.md, The streamed page). */
export const SELECT_WORLD_BETWEEN = "SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id";

/** Upper clamp and default of the stream page's ?parts= count (docs/ssr.md, The streamed page: 1..16, default 4). */
export const MAX_PARTS = 16;
export const DEFAULT_PARTS = 4;

/** One part of the stream page: its index and its World ids first..last. */
export interface Part {
  part: number;
  first: number;
  last: number;
}

/**
 * The stream page's parts from ?rows= (as rowCount) and ?parts= (missing or non-numeric: 4; clamped to 1..16 and
 * to the row count): part k holds ids floor(k*N/K)+1 .. floor((k+1)*N/K) (docs/ssr.md, The streamed page).
 */
export function streamParts(): Part[] {
  const n = rowCount();
  const raw = request.query("parts");
  let k = /^[+-]?\d+$/.test(raw) ? Number(raw) : DEFAULT_PARTS;
  k = Math.min(Math.max(k, 1), MAX_PARTS, n);
  const parts: Part[] = [];
  for (let i = 0; i < k; i++) parts.push({ part: i, first: Math.floor((i * n) / k) + 1, last: Math.floor(((i + 1) * n) / k) });
  return parts;
}
