// The page test's cache-hit route (docs/ssr.md, Cache states: hit): the /ssr page through the ISR cache, keyed by path and
// raw query, so /isr?rows=N is rendered once and then served from memory (the render counts do not grow on a hit).
import { worldPage } from "../components/WorldPage";

/** Seconds a rendered page stays fresh: an hour, longer than any measured window. */
export const revalidate = 3600;

export default worldPage;
