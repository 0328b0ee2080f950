/**
 * TFB fortunes test: every Fortune row loaded per request by a routeLoader$
 * (server-only), the request-time row added, sorted by message in UTF-8 byte
 * order in code, and rendered by a Qwik component, which escapes every
 * message. Qwik City sends text/html; charset=utf-8 for pages; the page also
 * carries Qwik's resumability markup (container attributes, the qwikloader
 * and the qwik/json state script).
 */
import { component$ } from '@builder.io/qwik';
import { routeLoader$, type DocumentHead } from '@builder.io/qwik-city';
import { allFortunes, type Fortune } from '../../database';

/** Byte-order (UTF-8) comparison of two fortunes' messages. */
function compareMessages(a: Fortune, b: Fortune): number {
  return Buffer.compare(Buffer.from(a.message, 'utf8'), Buffer.from(b.message, 'utf8'));
}

export const useFortunes = routeLoader$((): Fortune[] => {
  const list = allFortunes();
  list.push({ id: 0, message: 'Additional fortune added at request time.' });
  list.sort(compareMessages);
  return list;
});

export default component$(() => {
  const fortunes = useFortunes();
  return (
    <table>
      <tr>
        <th>id</th>
        <th>message</th>
      </tr>
      {fortunes.value.map((f) => (
        <tr key={f.id}>
          <td>{f.id}</td>
          <td>{f.message}</td>
        </tr>
      ))}
    </table>
  );
});

export const head: DocumentHead = {
  title: 'Fortunes',
};
