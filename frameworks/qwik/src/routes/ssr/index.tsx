/**
 * The page test (docs/ssr.md, The page; suite type page): /ssr?rows=N, World rows 1..N
 * (N clamped to 1..10000) read by a routeLoader$ on every request with one
 * query, rendered as a table whose rows are a Row component$ (two cells and
 * a few attributes). Qwik City sends text/html; charset=utf-8 for pages and
 * no Cache-Control; nothing is cached server-side. The page also carries
 * Qwik's resumability markup (qv comments, the qwikloader, qwik/json).
 */
import { component$ } from '@builder.io/qwik';
import { routeLoader$, type DocumentHead } from '@builder.io/qwik-city';
import { rowCount, worldRange, type World } from '../../database';

export const useWorlds = routeLoader$(({ query }): World[] => worldRange(rowCount(query)));

/** One World row: <tr class="row" data-id=ID> with the id and randomNumber cells. */
export const Row = component$((props: { world: World }) => {
  const w = props.world;
  return (
    <tr class="row" data-id={w.id}>
      <td class="id">{w.id}</td>
      <td class="num">{w.randomNumber}</td>
    </tr>
  );
});

export default component$(() => {
  const worlds = useWorlds();
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
        </tr>
      </thead>
      <tbody>
        {worlds.value.map((w) => (
          <Row key={w.id} world={w} />
        ))}
      </tbody>
    </table>
  );
});

export const head: DocumentHead = {
  title: 'World rows',
};
