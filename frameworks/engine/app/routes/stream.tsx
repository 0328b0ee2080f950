// The stream page (docs/ssr.md, The streamed page): GET /stream?rows=N&parts=K. The renderer is synchronous (no event loop), so the
// route writes the page itself through htmlStream(): the shell (Layout and <h1>) is written and flushed first, then
// each part's rows are read by their own query and its table rendered and flushed, one part after the other, then
// the page's end. No fallback markup: a part's table goes where it belongs, in order.
import { db, h, htmlStream } from "engine";
import { Layout } from "../components/Layout";
import { StreamPart } from "../components/StreamPart";
import { SELECT_WORLD_BETWEEN, streamParts, type World } from "../lib/world";

/** Streamed: the server sends each written chunk as it comes (host.ts, htmlStream). */
export const stream = true;

export default function () {
  return htmlStream(
    (slot) => (
      <Layout title="World">
        <h1>World</h1>
        {slot}
      </Layout>
    ),
    streamParts().map((p) => () => <StreamPart part={p.part} worlds={db.all<World>(SELECT_WORLD_BETWEEN, p.first, p.last)} />),
  );
}
