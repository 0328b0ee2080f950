// The showcase's World table, three component levels deep: WorldTable -> WorldRow -> Cell.
import { h, type Child } from "engine";
import type { World } from "../lib/world";

/** One table cell; numeric cells are right-aligned. */
export function Cell(props: { numeric?: boolean; children?: Child }) {
  return <td class={props.numeric ? "num" : undefined}>{props.children}</td>;
}

/** One World row: id, randomNumber, its parity and a bar whose width is randomNumber in per-mille. */
export function WorldRow(props: { world: World }) {
  const w = props.world;
  return (
    <tr id={"w" + w.id} class={w.randomNumber % 2 === 0 ? "even" : "odd"}>
      <Cell numeric>{w.id}</Cell>
      <Cell numeric>{w.randomNumber}</Cell>
      <Cell>{w.randomNumber % 2 === 0 ? "even" : "odd"}</Cell>
      <Cell>
        <span class="bar" style={"width:" + w.randomNumber / 100 + "%"} />
      </Cell>
    </tr>
  );
}

/** The table of worlds with a header and a footer row summing randomNumber. */
export function WorldTable(props: { worlds: World[] }) {
  let sum = 0;
  for (const w of props.worlds) sum += w.randomNumber;
  return (
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>randomNumber</th>
          <th>parity</th>
          <th>bar</th>
        </tr>
      </thead>
      <tbody>
        {props.worlds.map((w) => (
          <WorldRow world={w} />
        ))}
      </tbody>
      <tfoot>
        <tr>
          <Cell>{props.worlds.length} rows</Cell>
          <Cell numeric>{sum}</Cell>
          <Cell />
          <Cell />
        </tr>
      </tfoot>
    </table>
  );
}
