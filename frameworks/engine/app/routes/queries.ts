// TFB queries test: ?queries=N random World rows (N clamped to 1..500), each fetched by its own statement
// execution through db.batch (docs/tfb-rules.md, queries).
import { json } from "engine";
import { queryCount, randomWorlds } from "../lib/world";

export default function () {
  return json(randomWorlds(queryCount()));
}
