// The page test's World table (docs/ssr.md, The page): a header row, then one Row per World row, each two
// cells, three component levels deep: WorldTable -> Row -> Cell.
import { h, type Child } from "engine";
import type { World } from "../lib/world";

/** One table cell with its class: "id" or "num". */
export function Cell(props: { class: string; children?: Child }) {
  return <td class={props.class}>{props.children}</td>;
}

/** One World row: <tr class="row" data-id=ID> with the id and the randomNumber cells. */
export function Row(props: { world: World }) {
  const w = props.world;
  return (
    <tr class="row" data-id={w.id}>
      <Cell class="id">{w.id}</Cell>
      <Cell class="num">{w.randomNumber}</Cell>
    </tr>
  );
}

/** The World table: <thead> with the id and randomNumber headers, <tbody> with one Row per world. */
export function WorldTable(props: { worlds: World[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
        </tr>
      </thead>
      <tbody>
        {props.worlds.map((w) => (
          <Row world={w} />
        ))}
      </tbody>
    </table>
  );
}
