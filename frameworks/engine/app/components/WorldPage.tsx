// The page of the page test (docs/ssr.md, The page): World rows 1..N (N from ?rows=) read with ONE db.all on every render,
// rendered as Layout -> WorldTable -> Row -> Cell. Served uncached by /ssr and through the ISR cache by /isr.
import { db, h, html, type Frame } from "engine";
import { Layout } from "./Layout";
import { WorldTable } from "./WorldTable";
import { SELECT_WORLD_RANGE, rowCount, type World } from "../lib/world";

/** Renders the page of the request's ?rows= count: one query, then the table. */
export function worldPage(): Frame | Promise<Frame> {
  const n = rowCount();
  const worlds = db.all<World>(SELECT_WORLD_RANGE, n);
  return html(
    <Layout title={`World rows 1..${n}`}>
      <WorldTable worlds={worlds} />
    </Layout>,
  );
}
