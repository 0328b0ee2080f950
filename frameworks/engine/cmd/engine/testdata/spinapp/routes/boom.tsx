// A route that throws inside a precompiled element: the 500's log line must name this file and line 9.
import { html } from "engine";

export default function () {
  const row: { cell?: { text: string } } = {};
  return html(
    <table>
      <tr>
        <td class="x">{row.cell!.text}</td>
      </tr>
    </table>,
  );
}
