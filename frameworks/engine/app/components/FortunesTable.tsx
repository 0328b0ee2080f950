// The TFB fortunes table: a header row, then one row per fortune, every message escaped by the JSX runtime.
import { h } from "engine";

/** A Fortune row. */
export interface Fortune {
  id: number;
  message: string;
}

export function FortunesTable(props: { fortunes: Fortune[] }) {
  return (
    <table>
      <tr>
        <th>id</th>
        <th>message</th>
      </tr>
      {props.fortunes.map((f) => (
        <tr>
          <td>{f.id}</td>
          <td>{f.message}</td>
        </tr>
      ))}
    </table>
  );
}
