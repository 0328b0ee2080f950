// The page test: a document route. /ssr?rows=N reads World rows 1..N (N
// clamped to 1..10000, a missing or non-numeric value means 1) by one query
// on every request (no caching, no prerendering); React renders a Row
// component per row on the server, and the loader data is serialized into
// the page for hydration (the root layout's <Scripts />).
import Row from '../components/Row.jsx';
import { pageRows, worldRange } from '../db.server.js';

/** The rows of this request, as [{id, randomNumber}] in id order. */
export function loader({ request }) {
  return { rows: worldRange(pageRows(request)) };
}

export function meta() {
  return [{ title: 'World rows' }];
}

/** The World table: the document's first <table>, a header row, then one Row per World row. */
export default function Ssr({ loaderData }) {
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
        </tr>
      </thead>
      <tbody>
        {loaderData.rows.map((w) => (
          <Row key={w.id} id={w.id} randomNumber={w.randomNumber} />
        ))}
      </tbody>
    </table>
  );
}
