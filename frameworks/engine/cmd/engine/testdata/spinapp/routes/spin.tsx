// A route that never returns: the render timeout's end-to-end test (issue 16, item 3).
import { html } from "engine";

export default function () {
  for (;;) {}
  return html(<p>never</p>);
}
