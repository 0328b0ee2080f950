// The cached page (ISR): /isr/N renders the /ssr page's table for N rows
// (same parsing and clamp) once, when first requested, and vinext serves it
// from its ISR cache (the default MemoryCacheHandler, in the server's
// memory) for revalidate seconds after (header x-vinext-cache: HIT, and
// x-nextjs-cache: HIT as Next.js sends it). No path is prerendered at
// build time (generateStaticParams returns none, dynamicParams allows every
// N), so the build never opens the database.

import WorldTable from '../../components/WorldTable.jsx';
import { pageRows, worldRange } from '../../../lib/db.js';

/** Seconds a rendered page is served from the cache before it is rendered again in the background. */
export const revalidate = 3600;

export const dynamicParams = true;

/** No N is rendered at build time; each is rendered on its first request. */
export function generateStaticParams() {
  return [];
}

export default async function Isr({ params }) {
  const { rows } = await params;
  return (
    <>
      <title>World rows</title>
      <WorldTable rows={worldRange(pageRows(rows))} />
    </>
  );
}
