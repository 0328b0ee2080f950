// react-router, variant custom-server: the same React Router build
// (build/server/index.js) behind a plain node:http server, React Router's
// documented alternative to react-router-serve (`createRequestListener` from
// @react-router/node). Unlike react-router-serve (Express with morgan access
// logging on every request and compression), it logs nothing per request and
// never compresses. Files of the browser build (build/client: the hydration
// scripts under /assets/) are streamed from disk.
//
// Environment:
//
//   PORT           required: TCP port to listen on (1..65535)
//   DATABASE_PATH  required: the dataset's SQLite file, opened by the build's
//                  app/db.server.js when the build is imported
//   HOST           optional: address to bind, default 127.0.0.1
//   NODE_ENV       React Router's server mode (the harness sets production)
//
// SIGTERM or SIGINT closes the server; the database closes at process exit.

import { createReadStream, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createRequestListener } from '@react-router/node';

import { SERVER_NAME } from './app/server-name.js';

/** Name in this server's own log lines (the Server header comes from the app). */
const LOG_NAME = 'react-router custom-server';

/** The server build `react-router build` writes, relative to this file. */
const SERVER_BUILD = new URL('./build/server/index.js', import.meta.url);

/** The browser build directory, whose files are served at the site root. */
const CLIENT_DIR = fileURLToPath(new URL('./build/client/', import.meta.url));

/** Content types of the browser build's files by extension; others are octet streams. */
const CONTENT_TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Cache-Control of fingerprinted files under /assets/ (as react-router-serve sends it). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function fatal(msg) {
  console.error(`${LOG_NAME}: ${msg}`);
  process.exit(1);
}

/**
 * Reads PORT and HOST from env. Returns {host, port}; throws an Error naming
 * the variable that is missing or malformed.
 */
function config(env) {
  const port = env.PORT;
  if (!port) throw new Error('PORT is not set (the TCP port to listen on)');
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new Error(`PORT=${JSON.stringify(port)} is not a port number 1..65535`);
  }
  return { host: env.HOST || '127.0.0.1', port: Number(port) };
}

/**
 * Lists the files under dir (skipping dot files and directories such as
 * .vite) as a Map from URL path ("/assets/x.js") to {path, size (bytes),
 * type, cacheControl}. The set is fixed at startup, so a request can only
 * name a file the build wrote. Throws an Error naming dir when it cannot be
 * read (the build is missing).
 */
function listStatic(dir) {
  const files = new Map();
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (entry.isFile()) {
        const urlPath = '/' + relative(dir, path).split(sep).join('/');
        files.set(urlPath, {
          path,
          size: statSync(path).size,
          type: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
          cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : 'public, max-age=3600',
        });
      }
    }
  };
  try {
    walk(dir);
  } catch (err) {
    throw new Error(`browser build ${dir}: ${err.message} (run react-router build first)`);
  }
  return files;
}

/**
 * Builds the request listener: GET/HEAD of a browser-build file is answered
 * from disk, everything else goes to React Router (which names the server
 * in its own responses; static files get the same Server value here).
 */
function handler(build, files, serverName, log) {
  const app = createRequestListener({ build, mode: process.env.NODE_ENV });
  return (req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const q = req.url.indexOf('?');
      const file = files.get(q === -1 ? req.url : req.url.slice(0, q));
      if (file !== undefined) {
        res.writeHead(200, {
          Server: serverName,
          'Content-Type': file.type,
          'Content-Length': file.size,
          'Cache-Control': file.cacheControl,
        });
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        createReadStream(file.path)
          .on('error', (err) => {
            log(`${req.url}: ${err.message}`);
            res.destroy();
          })
          .pipe(res);
        return;
      }
    }
    app(req, res);
  };
}

async function main() {
  let cfg, build, files;
  try {
    cfg = config(process.env);
    files = listStatic(CLIENT_DIR);
    build = await import(SERVER_BUILD.href);
  } catch (err) {
    fatal(err.message);
  }
  const log = (msg) => console.error(`${LOG_NAME}: ${msg}`);
  const server = createServer(handler(build, files, SERVER_NAME, log));
  server.on('error', (err) => fatal(`listen ${cfg.host}:${cfg.port}: ${err.message}`));
  server.listen(cfg.port, cfg.host, () => {
    log(`listening on http://${cfg.host}:${cfg.port}, ${files.size} static files, node ${process.version}`);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await main();
