// The World table of the /ssr and /isr pages (the page contract: the first
// <table> of the document, a header row, then one client-component Row per
// World row). A server component: it renders on the server only.

import Row from './Row.jsx';

/** The table of rows, each [{id, randomNumber}], in the order given. */
export default function WorldTable({ rows }) {
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((w) => (
          <Row key={w.id} id={w.id} randomNumber={w.randomNumber} />
        ))}
      </tbody>
    </table>
  );
}
