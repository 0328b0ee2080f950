// The page test (docs/ssr.md, The page; suite type page): GET /ssr?rows=N, World rows 1..N (N clamped to 1..10000) read with one
// query and rendered through nested components on every request (no ISR: the harness counts one render each).
import { worldPage } from "../components/WorldPage";

/** Seconds: 0 renders on every request (no ISR). */
export const revalidate = 0;

export default worldPage;
