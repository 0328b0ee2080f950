// The page test's World table (tfbench page contract, docs/ssr.md): the
// header row, then one Row component per World row in the order given.
import { For } from 'solid-js';
import Row from './Row.jsx';

export default function WorldTable(props) {
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.rows}>{(r) => <Row id={r.id} randomNumber={r.randomNumber} />}</For>
      </tbody>
    </table>
  );
}
