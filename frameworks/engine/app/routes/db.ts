// TFB db test: one random World row as {"id","randomNumber"} (docs/tfb-rules.md, db).
import { db, json } from "engine";
import { SELECT_WORLD, randomId, type World } from "../lib/world";

export default function () {
  const id = randomId();
  const row = db.get<World>(SELECT_WORLD, id);
  if (row === null) throw new Error(`World id ${id}: no such row`);
  return json(row);
}
