// The streamed page: /stream?rows=N&parts=K, World rows 1..N (N as /ssr)
// in K parts (1..16, default 4, at most N), each part behind its own
// Suspense boundary. The shell (layout, <h1>, a fallback per part) is sent
// first; each part follows when its async server component has its rows.
//
// Part k's rows are read by their own query on every request (force-dynamic,
// no cache), after part k-1's read and one turn of the event loop
// (setImmediate), so the parts resolve in order, one at a time: an
// asynchronous data source without a timer (the stream contract,
// ISSUE-36-DESIGN.md).

import { Suspense } from 'react';

import PartTable from '../components/PartTable.jsx';
import { pageRows, partRanges, streamParts, worldBetween } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

/** Resolves after one turn of the event loop (a setImmediate callback). */
function nextTurn() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** An async server component: one part's table once its rows (a promise) are read. */
async function Part({ part, rows }) {
  return <PartTable part={part} rows={await rows} />;
}

export default async function Stream({ searchParams }) {
  const { rows, parts } = await searchParams;
  const n = pageRows(rows);
  let previous = Promise.resolve();
  const ranges = partRanges(n, streamParts(parts, n)).map((r) => {
    previous = previous.then(nextTurn).then(() => worldBetween(r.lo, r.hi));
    return { ...r, rows: previous };
  });
  return (
    <>
      <title>World rows in parts</title>
      <h1>World rows</h1>
      {ranges.map((r) => (
        <Suspense key={r.part} fallback={<p className="loading">Loading rows {r.lo} to {r.hi}</p>}>
          <Part part={r.part} rows={r.rows} />
        </Suspense>
      ))}
    </>
  );
}
