// One part of the streamed page (/stream): its own table, marked with the
// part's index, holding one PartRow per World row. PartRow is Row.jsx's
// markup in a module of its own: a component shared by /ssr and /stream gets
// a client chunk of its own, and /ssr would gain a modulepreload (+93 bytes),
// changing the page the nightly compares.

/** A <tr> with the id and randomNumber cells, as Row.jsx renders them. */
function PartRow({ id, randomNumber }) {
  return (
    <tr className="row" data-id={id}>
      <td className="id">{id}</td>
      <td className="num">{randomNumber}</td>
    </tr>
  );
}

/** The part's table (the stream contract's markup): rows [{id, randomNumber}] in the order given. */
export default function PartTable({ part, rows }) {
  return (
    <table className="part" data-part={part}>
      <tbody>
        {rows.map((w) => (
          <PartRow key={w.id} id={w.id} randomNumber={w.randomNumber} />
        ))}
      </tbody>
    </table>
  );
}
