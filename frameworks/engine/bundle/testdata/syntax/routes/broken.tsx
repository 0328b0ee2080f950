import { h, html } from "engine";

export default function () {
  const rows = [1, 2, 3];
  return html(<table>{rows.map((r) => <tr><td>{r}</td></tr>)}</tabel>);
}
