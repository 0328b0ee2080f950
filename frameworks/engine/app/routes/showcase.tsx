// Render-cost showcase (not a TFB test): SHOWCASE_ROWS consecutive World rows from a random start, read with one
// db.all, rendered through nested components (Layout -> WorldTable -> WorldRow -> Cell). Rendered on every request.
import { db, h, html } from "engine";
import { Layout } from "../components/Layout";
import { WorldTable } from "../components/WorldTable";
import { WORLD_ROWS, type World } from "../lib/world";

/** Rows per page. */
const SHOWCASE_ROWS = 1000;

/** Seconds: 0 renders on every request (no ISR). */
export const revalidate = 0;

export default function () {
  const first = Math.floor(Math.random() * (WORLD_ROWS - SHOWCASE_ROWS + 1)) + 1;
  const worlds = db.all<World>(
    "SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id",
    first,
    first + SHOWCASE_ROWS - 1,
  );
  return html(
    <Layout title={`World ${first}..${first + SHOWCASE_ROWS - 1}`}>
      <h1>World rows</h1>
      <WorldTable worlds={worlds} />
    </Layout>,
  );
}
