import { db, text } from "engine";

export default function () {
  db.get("SELECT broken");
  return text("unreachable");
}
