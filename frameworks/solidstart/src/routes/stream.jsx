// tfbench stream page: /stream?rows=N&parts=K (docs/ssr.md). One Suspense
// boundary per part, each reading its rows with createAsync from a "use
// server" function in query(); SolidStart's streaming render sends the
// shell with every boundary's fallback, then each part's table (in a
// <template> plus a script that swaps it in) as its resource resolves.
// On the server part k's read starts after part k-1's, each after one
// event-loop turn (an asynchronous data source, never a timer); on the
// client hydration takes the streamed rows, so nothing is fetched again.
import { Title } from '@solidjs/meta';
import { createAsync, query, useSearchParams } from '@solidjs/router';
import { For, Suspense } from 'solid-js';
import { isServer } from 'solid-js/web';
import Row from '~/components/Row.jsx';
import { worldBetween } from '~/lib/db.js';
import { streamParts } from '~/lib/stream.js';

const getPart = query(async (first, last) => {
  'use server';
  return worldBetween(first, last);
}, 'worldPart');

/** Resolves after one turn of the event loop. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** One part: its own table of Row components once its rows resolve. */
function StreamPart(props) {
  const rows = createAsync(() => (isServer ? props.load : getPart(props.first, props.last)));
  return (
    <Suspense fallback={<p class="loading">loading part {props.part}</p>}>
      <table class="part" data-part={props.part}>
        <tbody>
          <For each={rows()}>{(r) => <Row id={r.id} randomNumber={r.randomNumber} />}</For>
        </tbody>
      </table>
    </Suspense>
  );
}

export default function Stream() {
  const [params] = useSearchParams();
  const parts = streamParts(params.rows, params.parts);
  let previous = Promise.resolve();
  const loads = parts.map(({ first, last }) => {
    if (!isServer) return undefined;
    previous = previous.then(nextTurn).then(() => getPart(first, last));
    // A failed read fails its boundary; the later parts reject too and may
    // never be read once the render stops: mark them handled.
    previous.catch(() => {});
    return previous;
  });
  return (
    <>
      <Title>World</Title>
      <h1>World</h1>
      <For each={parts}>{(p, i) => <StreamPart part={p.part} first={p.first} last={p.last} load={loads[i()]} />}</For>
    </>
  );
}
