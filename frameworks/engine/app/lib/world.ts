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

/** Upper clamp of the page test's ?rows= count (issue 14, the page contract: 1..10000). */
export const MAX_ROWS = 10000;

/** The page test's one statement: World rows 1..? in id order (issue 14, the page contract). */
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
 * (issue 14, the page contract; parsed as queryCount parses ?queries=).
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
