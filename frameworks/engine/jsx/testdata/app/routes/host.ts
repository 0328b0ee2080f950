import { db, json, request } from "engine";

export const revalidate = 2.5;

export default function () {
  return json(
    {
      method: request.method,
      path: request.path,
      q: request.query("q"),
      h: request.header("X-Test"),
      row: db.get("SELECT ?", 7, "s"),
      all: db.all("SELECT 1"),
      changed: db.run("DELETE"),
    },
    201,
  );
}
