// BenchmarkPageBytes' large page: 2,000 rows of ASCII text and one row with an em dash (U+2014), about 90 kB: the
// case where one character above U+00FF made the whole page a two-byte string.
import { html } from "engine";

const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, text: i === 1000 ? `row ${i + 1} — the odd one` : `row ${i + 1} of plain text` }));

export default function () {
  return html(
    <table>
      {rows.map((r) => (
        <tr class="row">
          <td>{r.id}</td>
          <td>{r.text}</td>
        </tr>
      ))}
    </table>,
  );
}
