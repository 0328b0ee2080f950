// node-http: the six TechEmpower tests (docs/tfb-rules.md), the page test
// (/ssr?rows=N, docs/ssr.md) and the streamed page (/stream?rows=N&parts=K,
// docs/ssr.md "The streamed page") on Node.js alone, node:http and
// node:sqlite, no framework and no dependencies.
//
// Environment:
//
//   PORT           required: TCP port to listen on (1..65535)
//   DATABASE_PATH  required: the dataset's SQLite file (World, Fortune); it
//                  must exist, the server never creates it
//   HOST           optional: address to bind, default 127.0.0.1
//
// The one connection sets busy_timeout=5000 (ms) and synchronous=NORMAL
// (docs/design.md, The dataset: the same per-connection pragmas for every
// adapter). node:sqlite is synchronous, so every query runs on the event
// loop, one at a time; updates are written in one BEGIN IMMEDIATE ... COMMIT
// transaction. SIGTERM or SIGINT closes the server and the database
// (checkpointing its WAL).

import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Value of the Server header on every response. */
const SERVER_NAME = 'node-http';

/** World ids are 1..WORLD_ROWS; randomNumber is drawn from the same range (TFB rules, the dataset). */
const WORLD_ROWS = 10000;

/** Upper clamp of the queries and updates row count (TFB rules, queries test: clamp to 1..500). */
const MAX_QUERIES = 500;

/** Upper clamp of the page test's rows parameter (tfbench page contract, docs/ssr.md: clamp to 1..10000). */
const MAX_PAGE_ROWS = WORLD_ROWS;

/** Bounds of the stream page's parts parameter (tfbench stream contract, docs/ssr.md: 1..16, default 4). */
const MAX_PARTS = 16;
const DEFAULT_PARTS = 4;

const HELLO = 'Hello, World!';

function fatal(msg) {
  console.error(`${SERVER_NAME}: ${msg}`);
  process.exit(1);
}

/**
 * Reads PORT, DATABASE_PATH and HOST from env. Returns {host, port, dbPath};
 * throws an Error naming the variable that is missing or malformed.
 */
function config(env) {
  const port = env.PORT;
  if (!port) throw new Error('PORT is not set (the TCP port to listen on)');
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new Error(`PORT=${JSON.stringify(port)} is not a port number 1..65535`);
  }
  const dbPath = env.DATABASE_PATH;
  if (!dbPath) throw new Error('DATABASE_PATH is not set (the dataset\'s SQLite file)');
  return { host: env.HOST || '127.0.0.1', port: Number(port), dbPath: resolve(dbPath) };
}

/**
 * Opens the dataset at path (which must exist), sets the per-connection
 * pragmas and prepares every statement. Throws an Error naming the path and
 * the step that failed (a missing file, a missing table).
 */
function openDatabase(path) {
  if (!existsSync(path)) throw new Error(`DATABASE_PATH: ${path} does not exist`);
  let db;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA busy_timeout=5000');
    db.exec('PRAGMA synchronous=NORMAL');
  } catch (err) {
    throw new Error(`open ${path}: ${err.message}`);
  }
  const prepare = (sql) => {
    try {
      return db.prepare(sql);
    } catch (err) {
      db.close();
      throw new Error(`${path}: prepare ${JSON.stringify(sql)}: ${err.message}`);
    }
  };
  return {
    db,
    selectWorld: prepare('SELECT id, randomNumber FROM World WHERE id = ?'),
    selectFortunes: prepare('SELECT id, message FROM Fortune'),
    selectWorlds: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id'),
    selectBetween: prepare('SELECT id, randomNumber FROM World WHERE id BETWEEN ? AND ? ORDER BY id'),
    updateWorld: prepare('UPDATE World SET randomNumber = ? WHERE id = ?'),
  };
}

/** A random World id (and randomNumber) in 1..WORLD_ROWS. */
function randomId() {
  return Math.floor(Math.random() * WORLD_ROWS) + 1;
}

/**
 * The queries/updates row count from the query string: TFB rules, queries
 * test: clamp to 1..500; a missing, empty or non-numeric value means 1 (an
 * optional sign and digits only, as Go's strconv.Atoi in go-stdlib).
 */
function queryCount(search) {
  const raw = new URLSearchParams(search).get('queries');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_QUERIES);
}

/**
 * The page test's row count from the query string (tfbench page contract,
 * docs/ssr.md): a missing, empty or non-numeric value means 1 (an optional
 * sign and digits only, as queryCount); clamped to 1..10000.
 */
function pageRows(search) {
  const raw = new URLSearchParams(search).get('rows');
  if (raw === null || !/^[+-]?\d+$/.test(raw)) return 1;
  const n = Number(raw);
  if (n < 1) return 1;
  return Math.min(n, MAX_PAGE_ROWS);
}

/**
 * The stream page's part count (tfbench stream contract, docs/ssr.md): a
 * missing or non-numeric value means 4; clamped to 1..16 and to rows.
 */
function streamParts(search, rows) {
  const raw = new URLSearchParams(search).get('parts');
  const k = raw !== null && /^[+-]?\d+$/.test(raw) ? Number(raw) : DEFAULT_PARTS;
  return Math.max(1, Math.min(k, MAX_PARTS, rows));
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** HTML-escapes & < > " ' in s (the reference page's forms). */
function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Byte-order (UTF-8) comparison of two fortunes' messages. */
function compareMessages(a, b) {
  return Buffer.compare(Buffer.from(a.message, 'utf8'), Buffer.from(b.message, 'utf8'));
}

/** Sends body with an explicit Content-Length (no chunking). */
function send(res, status, contentType, body) {
  res.writeHead(status, {
    Server: SERVER_NAME,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Builds the request handler over the prepared statements of store. */
function handler(store, log) {
  const { db, selectWorld, selectFortunes, selectWorlds, selectBetween, updateWorld } = store;

  // tfbench stream page: the shell (layout, heading, a fallback per part)
  // written first, then each part k (World ids k*N/K+1 .. (k+1)*N/K) after
  // one turn of the event loop, read by its own query and written as its own
  // table; no Content-Length, so node:http sends it chunked as it goes.
  const streamPage = async (res, search) => {
    const n = pageRows(search);
    const k = streamParts(search, n);
    res.writeHead(200, { Server: SERVER_NAME, 'Content-Type': 'text/html; charset=utf-8' });
    let shell = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body><h1>World rows</h1>';
    for (let p = 0; p < k; p++) {
      shell += `<div class="slot" id="slot-${p}"><p class="fallback">Loading part ${p}</p></div>`;
    }
    res.write(shell);
    for (let p = 0; p < k; p++) {
      await new Promise((r) => setImmediate(r)); // an asynchronous data source: one turn, never a timer
      if (res.destroyed) return;
      const rows = selectBetween.all(Math.floor((p * n) / k) + 1, Math.floor(((p + 1) * n) / k));
      let html = `<table class="part" data-part="${p}"><tbody>`;
      for (const r of rows) {
        const id = escapeHtml(String(r.id));
        html += `<tr class="row" data-id="${id}"><td class="id">${id}</td><td class="num">${escapeHtml(String(r.randomNumber))}</td></tr>`;
      }
      html += '</tbody></table>';
      if (p === k - 1) res.end(html + '</body></html>');
      else res.write(html);
    }
  };

  const loadWorld = (id) => {
    const row = selectWorld.get(id);
    if (row === undefined) throw new Error(`World id ${id}: no such row`);
    return { id: row.id, randomNumber: row.randomNumber };
  };

  const loadWorlds = (n) => {
    const rows = new Array(n);
    for (let i = 0; i < n; i++) rows[i] = loadWorld(randomId());
    return rows;
  };

  const routes = {
    '/stream': (res, search) =>
      streamPage(res, search).catch((err) => {
        log(`GET /stream?${search}: ${err.message}`);
        if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
        else res.destroy();
      }),

    // TFB json test: the object built and serialized on every request.
    '/json': (res) => send(res, 200, 'application/json', JSON.stringify({ message: HELLO })),

    // TFB plaintext test.
    '/plaintext': (res) => send(res, 200, 'text/plain', HELLO),

    // TFB db test: one random World row.
    '/db': (res) => send(res, 200, 'application/json', JSON.stringify(loadWorld(randomId()))),

    // TFB queries test: N rows, each by its own query.
    '/queries': (res, search) =>
      send(res, 200, 'application/json', JSON.stringify(loadWorlds(queryCount(search)))),

    // TFB updates test: each row read by its own query, given a new
    // randomNumber in 1..10000 different from the one read, and written back
    // by one UPDATE per row inside a single IMMEDIATE transaction before the
    // response is sent.
    '/updates': (res, search) => {
      const rows = loadWorlds(queryCount(search));
      for (const row of rows) {
        const old = row.randomNumber;
        while (row.randomNumber === old) row.randomNumber = randomId();
      }
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const row of rows) updateWorld.run(row.randomNumber, row.id);
        db.exec('COMMIT');
      } catch (err) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw new Error(`update World: ${err.message}`);
      }
      send(res, 200, 'application/json', JSON.stringify(rows));
    },

    // TFB fortunes test: every Fortune row read per request, the
    // request-time row added, sorted by message in UTF-8 byte order in code,
    // rendered with every message escaped.
    '/fortunes': (res) => {
      const list = selectFortunes.all().map((r) => ({ id: r.id, message: r.message }));
      list.push({ id: 0, message: 'Additional fortune added at request time.' });
      list.sort(compareMessages);
      let html =
        '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>';
      for (const f of list) {
        html += `<tr><td>${f.id}</td><td>${escapeHtml(f.message)}</td></tr>`;
      }
      html += '</table></body></html>';
      send(res, 200, 'text/html; charset=utf-8', html);
    },

    // tfbench page test: World rows 1..N read by one query on every
    // request, rendered as one table by the string template, each value
    // escaped as the fortunes messages are.
    '/ssr': (res, search) => {
      const rows = selectWorlds.all(pageRows(search));
      let html =
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body>' +
        '<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>';
      for (const r of rows) {
        const id = escapeHtml(String(r.id));
        html += `<tr class="row" data-id="${id}"><td class="id">${id}</td><td class="num">${escapeHtml(String(r.randomNumber))}</td></tr>`;
      }
      html += '</tbody></table></body></html>';
      send(res, 200, 'text/html; charset=utf-8', html);
    },
  };

  return (req, res) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = routes[path];
    if (route === undefined || !Object.hasOwn(routes, path)) {
      send(res, 404, 'text/plain', 'not found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'text/plain', 'method not allowed');
      return;
    }
    try {
      route(res, q === -1 ? '' : url.slice(q + 1));
    } catch (err) {
      log(`${req.method} ${url}: ${err.message}`);
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
      else res.destroy();
    }
  };
}

function main() {
  let cfg, store;
  try {
    cfg = config(process.env);
    store = openDatabase(cfg.dbPath);
  } catch (err) {
    fatal(err.message);
  }
  const log = (msg) => console.error(`${SERVER_NAME}: ${msg}`);
  const server = createServer({ keepAliveTimeout: 65_000 }, handler(store, log));
  server.on('error', (err) => {
    store.db.close();
    fatal(`listen ${cfg.host}:${cfg.port}: ${err.message}`);
  });
  server.listen(cfg.port, cfg.host, () => {
    log(`listening on http://${cfg.host}:${cfg.port}, database ${cfg.dbPath}, node ${process.version}`);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const done = () => {
      try {
        store.db.close();
      } catch (err) {
        log(`close database: ${err.message}`);
      }
      process.exit(0);
    };
    server.close(done);
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      done();
    }, 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
