// One World row of the /ssr page: a component rendered on the server and
// hydrated in the browser from the route's loader data ({id, randomNumber}
// per row, serialized into the page).

/** A <tr> with the id and randomNumber cells (the page contract's suggested markup). */
export default function Row({ id, randomNumber }) {
  return (
    <tr className="row" data-id={id}>
      <td className="id">{id}</td>
      <td className="num">{randomNumber}</td>
    </tr>
  );
}
