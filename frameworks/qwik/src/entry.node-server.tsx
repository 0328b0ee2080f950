/**
 * Production server for the node-server adapter (the Qwik starter's
 * entry.node-server.tsx): node:http with Qwik City's node middleware
 * (static files from dist/, then the router, then the 404 page). Built to
 * server/entry.node-server.js and started as
 * `node server/entry.node-server.js`.
 *
 * Environment:
 *
 *   PORT           required: TCP port to listen on (1..65535); the starter
 *                  reads PORT too
 *   HOST           optional: address to bind, default 127.0.0.1 (the starter
 *                  binds every address)
 *   DATABASE_PATH  required: the dataset's SQLite file, opened here at
 *                  startup so a bad path fails before listening
 *
 * SIGTERM or SIGINT closes the server and the database (checkpointing its
 * WAL).
 */
import { createQwikCity } from '@builder.io/qwik-city/middleware/node';
import qwikCityPlan from '@qwik-city-plan';
import render from './entry.ssr';
import { createServer } from 'node:http';
import { closeDatabase, openDatabase } from './database';

const NAME = 'qwik';

function log(msg: string): void {
  console.error(`${NAME}: ${msg}`);
}

function fatal(msg: string): never {
  log(msg);
  process.exit(1);
}

/**
 * Reads PORT and HOST from env. Returns {host, port}; throws an Error naming
 * the variable that is missing or malformed.
 */
function config(env: NodeJS.ProcessEnv): { host: string; port: number } {
  const port = env.PORT;
  if (!port) throw new Error('PORT is not set (the TCP port to listen on)');
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new Error(`PORT=${JSON.stringify(port)} is not a port number 1..65535`);
  }
  return { host: env.HOST || '127.0.0.1', port: Number(port) };
}

function main(): void {
  let cfg: { host: string; port: number };
  let dbPath: string;
  try {
    cfg = config(process.env);
    dbPath = openDatabase().path;
  } catch (err) {
    fatal((err as Error).message);
  }

  const { router, notFound, staticFile } = createQwikCity({
    render,
    qwikCityPlan,
    static: {
      cacheControl: 'public, max-age=31536000, immutable',
    },
  });

  const server = createServer({ keepAliveTimeout: 65_000 });
  server.on('request', (req, res) => {
    staticFile(req, res, () => {
      router(req, res, () => {
        notFound(req, res, () => {});
      });
    });
  });
  server.on('error', (err) => {
    closeDatabase();
    fatal(`listen ${cfg.host}:${cfg.port}: ${err.message}`);
  });
  server.listen(cfg.port, cfg.host, () => {
    log(`listening on http://${cfg.host}:${cfg.port}, database ${dbPath}, node ${process.version}`);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const done = () => {
      try {
        closeDatabase();
      } catch (err) {
        log(`close database: ${(err as Error).message}`);
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
