// TFB fortunes test: a server-rendered Solid page. Its data comes from a
// server function ("use server") wrapped in the router's query(), preloaded
// by the route and read with createAsync: every Fortune row read on this
// request, the extra row added, sorted in code (src/lib/db.js). Solid's SSR
// escapes each message as text (& and <).
import { For } from 'solid-js';
import { Title } from '@solidjs/meta';
import { createAsync, query } from '@solidjs/router';
import { fortunes } from '~/lib/db.js';

const getFortunes = query(async () => {
  'use server';
  return fortunes();
}, 'fortunes');

export const route = {
  preload: () => getFortunes(),
};

export default function Fortunes() {
  const list = createAsync(() => getFortunes());
  return (
    <>
      <Title>Fortunes</Title>
      <table>
        <tbody>
          <tr>
            <th>id</th>
            <th>message</th>
          </tr>
          <For each={list()}>
            {(f) => (
              <tr>
                <td>{f.id}</td>
                <td>{f.message}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </>
  );
}
