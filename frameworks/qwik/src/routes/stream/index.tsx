/**
 * The stream page (docs/ssr.md, The streamed page): /stream?rows=N&parts=K. One useResource$ per
 * part reads the part's rows through a server$ function, each after the
 * previous part's resource resolved and one event-loop turn; the page
 * renders each through <Resource>. Qwik 1's SSR streams in order: before it
 * awaits a pending resource it flushes what it has, so the shell (document,
 * <h1>) goes out first and each part's table after its read. On the server
 * <Resource> renders no onPending markup (that is for the browser), and the
 * resolved rows are serialized again in qwik/json for resumability.
 */
import { component$, Resource, useResource$, type ResourceReturn } from '@builder.io/qwik';
import { server$, useLocation, type DocumentHead } from '@builder.io/qwik-city';
import { worldBetween, type World } from '../../database';
import { streamParts } from '../../stream-parts';
import { Row } from '../ssr';

/** One part's rows, read on the server (server$) by its own query. */
const readPart = server$((first: number, last: number): World[] => worldBetween(first, last));

/** The resource of part first..last: read after previous resolved, one event-loop turn later. */
function usePart(first: number, last: number, previous: ResourceReturn<World[]> | undefined): ResourceReturn<World[]> {
  return useResource$(async () => {
    if (previous !== undefined) await previous.value;
    await new Promise((resolve) => setImmediate(resolve));
    return readPart(first, last);
  });
}

/** One part: its own table of the /ssr page's Row components. */
export const StreamPart = component$((props: { part: number; worlds: World[] }) => {
  return (
    <table class="part" data-part={props.part}>
      <tbody>
        {props.worlds.map((w) => (
          <Row key={w.id} world={w} />
        ))}
      </tbody>
    </table>
  );
});

export default component$(() => {
  const parts = streamParts(useLocation().url.searchParams);
  const resources: ResourceReturn<World[]>[] = [];
  for (const p of parts) resources.push(usePart(p.first, p.last, resources[resources.length - 1]));
  return (
    <>
      <h1>World</h1>
      {parts.map((p) => (
        <Resource
          key={p.part}
          value={resources[p.part]}
          onPending={() => <p class="loading">loading part {p.part}</p>}
          onResolved={(worlds) => <StreamPart part={p.part} worlds={worlds} />}
        />
      ))}
    </>
  );
});

export const head: DocumentHead = {
  title: 'World',
};
