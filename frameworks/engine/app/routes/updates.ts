// TFB updates test: as queries, then each row gets a new randomNumber in 1..10000 (different from the one read),
// written back by one UPDATE per row in a single BEGIN IMMEDIATE transaction before the response, and the
// updated rows are returned (docs/tfb-rules.md, updates).
import { db, json } from "engine";
import { queryCount, randomId, randomWorlds } from "../lib/world";

const UPDATE_WORLD = "UPDATE World SET randomNumber = ? WHERE id = ?";

export default function () {
  const rows = randomWorlds(queryCount());
  const params: number[][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const old = row.randomNumber;
    while (row.randomNumber === old) row.randomNumber = randomId();
    params[i] = [row.randomNumber, row.id];
  }
  db.tx(UPDATE_WORLD, params);
  return json(rows);
}
