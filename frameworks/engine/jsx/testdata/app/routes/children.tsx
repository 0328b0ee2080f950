import { h, html } from "engine";

export default function () {
  const items = ["a", ["b", ["c"]], null, undefined, false, true, 0, 7n];
  return html(
    <ul>
      {items}
      {[1, 2].map((n) => (
        <li>{n}</li>
      ))}
      {false && <li>never</li>}
      {null}
    </ul>,
  );
}
