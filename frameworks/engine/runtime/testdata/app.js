// Fixture app for the runtime tests: a hand-written stand-in for the
// bundle's entry (engine-contract.md). It defines globalThis.__engine with
// meta() and render(i) and uses the __host functions directly.
(function () {
  "use strict";

  // check turns a host error string ("\0ERR:" + message) into a throw.
  function check(r) {
    if (typeof r === "string" && r[0] === "\0") {
      throw new Error(r.slice(5));
    }
    return r;
  }
  // rows turns __host.all's flat array ([names, values...]) into row objects.
  function rows(a) {
    const names = a[0];
    const out = [];
    for (let j = 1; j < a.length; j += names.length) {
      const r = {};
      names.forEach((n, k) => (r[n] = a[j + k]));
      out.push(r);
    }
    return out;
  }
  const db = {
    all: (sql, ...p) => rows(JSON.parse(check(__host.all(sql, JSON.stringify(p))))),
    get: (sql, ...p) => JSON.parse(check(__host.get(sql, JSON.stringify(p)))),
    run: (sql, ...p) => check(__host.run(sql, JSON.stringify(p))),
    batch: (sql, list) => JSON.parse(check(__host.batch(sql, JSON.stringify(list)))),
    tx: (sql, list) => check(__host.tx(sql, JSON.stringify(list))),
  };
  const frame = (status, type, body) => status + "\n" + type + "\n" + body;
  const json = (v) => frame(200, "application/json", JSON.stringify(v));
  const escape = (s) =>
    s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c]);

  function failDeep(n) {
    if (n > 0) {
      return failDeep(n - 1);
    }
    throw new Error("boom");
  }

  async function later(v) {
    await null;
    return v;
  }

  const routes = [
    { path: "/json", render: () => json({ message: "Hello, World!" }) },
    {
      path: "/request",
      render: () =>
        json({
          method: __host.method(),
          path: __host.path(),
          q: __host.query("q"),
          missing: __host.query("missing"),
          agent: __host.header("user-agent"),
          absent: __host.header("x-absent"),
        }),
    },
    { path: "/db", render: () => json(db.get("SELECT id, randomNumber FROM World WHERE id = ?", Number(__host.query("id")))) },
    {
      path: "/queries",
      render: () =>
        json(db.batch("SELECT id, randomNumber FROM World WHERE id = ?", __host.query("ids").split(",").map((s) => [Number(s)]))),
    },
    {
      path: "/updates",
      render: () => {
        const ids = __host.query("ids").split(",").map(Number);
        const list = ids.map((id) => [id + 5000, id]);
        if (__host.query("fail") !== "") {
          list.push([null, ids[0]]); // violates NOT NULL: the whole tx rolls back
        }
        const changed = db.tx("UPDATE World SET randomNumber = ? WHERE id = ?", list);
        return json({ changed, rows: db.batch("SELECT id, randomNumber FROM World WHERE id = ?", ids.map((id) => [id])) });
      },
    },
    { path: "/all", render: () => json(db.all("SELECT id, message FROM Fortune ORDER BY id")) },
    {
      path: "/fortunes",
      render: () => {
        const rows = db.all("SELECT id, message FROM Fortune");
        rows.push({ id: 0, message: "Additional fortune added at request time." });
        rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
        let body = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
        for (const r of rows) {
          body += "<tr><td>" + r.id + "</td><td>" + escape(r.message) + "</td></tr>";
        }
        return frame(200, "text/html; charset=utf-8", body + "</table></body></html>");
      },
    },
    { path: "/throw", render: () => failDeep(2) },
    {
      path: "/async",
      render: async () => {
        const id = await later(Number(__host.query("id")));
        const row = db.get("SELECT id, randomNumber FROM World WHERE id = ?", id);
        return frame(201, "application/json", JSON.stringify(await later(row)));
      },
    },
    {
      path: "/async-throw",
      render: async () => {
        await later(1);
        failDeep(1);
      },
    },
    { path: "/sqlerr", render: () => json(db.all("SELECT nope FROM Nowhere")) },
    { path: "/run", render: () => json({ changes: db.run("UPDATE Fortune SET message = message WHERE id <= ?", 3) }) },
    { path: "/cached", revalidate: 2.5, render: () => frame(200, "text/plain", "line 1\nline 2") },
    { path: "/bad-frame", render: () => 42 },
    { path: "/async-bad-frame", render: async () => 42 },
    {
      // Spins forever while ?spin= is set (the render timeout's test), else answers how often it was called.
      path: "/spin",
      render: () => {
        spins++;
        if (__host.query("spin") !== "") {
          for (;;) {}
        }
        return frame(200, "text/plain", "spun " + spins);
      },
    },
    {
      path: "/async-spin",
      render: async () => {
        await later(1);
        for (;;) {}
      },
    },
    {
      path: "/console",
      render: () => {
        console.log("rows", 3, { a: [1, "x"] }, null, undefined);
        console.error(new Error("bad row"));
        console.warn("cycle", cyclic);
        return frame(200, "text/plain", "logged");
      },
    },
  ];
  let spins = 0;
  const cyclic = {};
  cyclic.self = cyclic;
  console.info("fixture loaded");

  globalThis.__engine = {
    meta: () => JSON.stringify(routes.map((r) => ({ path: r.path, file: "app/routes" + r.path + ".ts", revalidate: r.revalidate || 0 }))),
    render: (i) => routes[i].render(),
  };
})();
