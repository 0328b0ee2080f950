import { h, html } from "engine";

export default function () {
  return html(
    <div>
      <br />
      <img src="a.png" alt="a 'b'" />
      <input type="checkbox" checked />
      <hr />
      <meta charset="utf-8" />
    </div>,
  );
}
