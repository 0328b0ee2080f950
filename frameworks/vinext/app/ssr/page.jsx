// The page test: /ssr?rows=N, World rows 1..N (N clamped to 1..10000, a
// missing or non-numeric value means 1) read by one query on every request
// (force-dynamic: no static generation, no caching) and rendered as a table
// of client-component rows, whose props travel in the RSC payload.

import WorldTable from '../components/WorldTable.jsx';
import { pageRows, worldRange } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

export default async function Ssr({ searchParams }) {
  const { rows } = await searchParams;
  return (
    <>
      <title>World rows</title>
      <WorldTable rows={worldRange(pageRows(rows))} />
    </>
  );
}
