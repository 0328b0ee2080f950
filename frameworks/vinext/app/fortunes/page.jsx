// TFB fortunes test: a React server component rendered on every request
// (force-dynamic: no static generation, no caching). Every Fortune row is
// read per request, the request-time row added and the list sorted in
// lib/db.js; React escapes each message as text and hoists the <title>
// into the layout's <head>.

import { fortunes } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

export default function Fortunes() {
  return (
    <>
      <title>Fortunes</title>
      <table>
        <tbody>
          <tr>
            <th>id</th>
            <th>message</th>
          </tr>
          {fortunes().map((f) => (
            <tr key={f.id}>
              <td>{f.id}</td>
              <td>{f.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

