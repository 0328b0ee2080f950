// tfbench page test: /ssr?rows=N, World rows 1..N (N missing or
// non-numeric → 1, clamped to 1..10000 on the server) read by one query on
// every request. The loader is a server function ("use server") wrapped in
// the router's query() (deduplicated within a request, never cached across
// requests on the server), preloaded by the route and read with
// createAsync, as e18e's framework-tracker /server-side-rendered page does;
// the rows are serialized into the page for hydration. Rendered through
// WorldTable > Row.
import { Title } from '@solidjs/meta';
import { createAsync, query, useSearchParams } from '@solidjs/router';
import WorldTable from '~/components/WorldTable.jsx';
import { pageRows, worldRange } from '~/lib/db.js';

const getWorlds = query(async (rows) => {
  'use server';
  return worldRange(pageRows(rows));
}, 'worlds');

export const route = {
  preload: ({ location }) => getWorlds(location.query.rows),
};

export default function Ssr() {
  const [params] = useSearchParams();
  const rows = createAsync(() => getWorlds(params.rows));
  return (
    <>
      <Title>World</Title>
      <WorldTable rows={rows()} />
    </>
  );
}
