// TFB fortunes test: a document route. The loader reads every Fortune row on
// each request (no caching, no prerendering) and React renders the table on
// the server, escaping every message; the root layout adds the document
// around it and the hydration scripts after it.
import { sortedFortunes } from '../db.server.js';

/** Every Fortune row plus the request-time row, sorted by message (TFB fortunes test). */
export function loader() {
  return { fortunes: sortedFortunes() };
}

/** The page title the reference page has: <title>Fortunes</title>. */
export function meta() {
  return [{ title: 'Fortunes' }];
}

/**
 * The fortunes table. <tbody> is explicit so the server markup equals the
 * DOM a browser parses (and hydrates against); verification ignores it.
 */
export default function Fortunes({ loaderData }) {
  return (
    <table>
      <tbody>
        <tr>
          <th>id</th>
          <th>message</th>
        </tr>
        {loaderData.fortunes.map((f) => (
          <tr key={f.id}>
            <td>{f.id}</td>
            <td>{f.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
