'use client';

// One World row of the /ssr and /isr pages: a client component, so the
// server components that render it send its props ({id, randomNumber}) in
// the RSC payload and the browser hydrates it, as a real app's list would.

/** A <tr> with the id and randomNumber cells (the page contract's suggested markup). */
export default function Row({ id, randomNumber }) {
  return (
    <tr className="row" data-id={id}>
      <td className="id">{id}</td>
      <td className="num">{randomNumber}</td>
    </tr>
  );
}
