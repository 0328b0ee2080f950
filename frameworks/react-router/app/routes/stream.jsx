// The streamed page: /stream?rows=N&parts=K, World rows 1..N (N as /ssr) in
// K parts (1..16, default 4, at most N), with React Router's deferred loader
// data: the loader returns one promise per part without awaiting it, and
// each part renders in <Suspense><Await>. The shell (document, <h1>, a
// fallback per part) is sent first; each part follows when its promise
// resolves, its rows also going into the page for hydration.
//
// Part k's rows are read by their own query on every request (no cache),
// after part k-1's read and one turn of the event loop (setImmediate), so
// the parts resolve in order, one at a time: an asynchronous data source
// without a timer (the stream contract, ISSUE-36-DESIGN.md). entry.server.jsx
// sends this route's shell first for every User-Agent, bots too.
import { Suspense } from 'react';
import { Await } from 'react-router';

import PartTable from '../components/PartTable.jsx';
import { pageRows, partRanges, streamParts, worldBetween } from '../db.server.js';

/** Resolves after one turn of the event loop (a setImmediate callback). */
function nextTurn() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The parts of this request as [{part, lo, hi, rows}], rows a promise of [{id, randomNumber}]. */
export function loader({ request }) {
  const n = pageRows(request);
  let previous = Promise.resolve();
  const parts = partRanges(n, streamParts(request, n)).map((r) => {
    previous = previous.then(nextTurn).then(() => worldBetween(r.lo, r.hi));
    return { ...r, rows: previous };
  });
  return { parts };
}

export function meta() {
  return [{ title: 'World rows in parts' }];
}

/** The heading, then each part's table behind its own Suspense boundary. */
export default function Stream({ loaderData }) {
  return (
    <>
      <h1>World rows</h1>
      {loaderData.parts.map((p) => (
        <Suspense key={p.part} fallback={<p className="loading">Loading rows {p.lo} to {p.hi}</p>}>
          <Await resolve={p.rows}>{(rows) => <PartTable part={p.part} rows={rows} />}</Await>
        </Suspense>
      ))}
    </>
  );
}
