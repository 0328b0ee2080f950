// One part of the streamed page (/stream): its own table, marked with the
// part's index, holding one client-component Row per World row (the /ssr
// page's Row, so its props travel in the RSC payload as there). A server
// component: it renders on the server only.

import Row from './Row.jsx';

/** The part's table (the stream contract's markup): rows [{id, randomNumber}] in the order given. */
export default function PartTable({ part, rows }) {
  return (
    <table className="part" data-part={part}>
      <tbody>
        {rows.map((w) => (
          <Row key={w.id} id={w.id} randomNumber={w.randomNumber} />
        ))}
      </tbody>
    </table>
  );
}
