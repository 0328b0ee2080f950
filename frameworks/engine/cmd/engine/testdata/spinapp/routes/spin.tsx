// A route that never returns: the render timeout's end-to-end test (ENGINE_RENDER_TIMEOUT, frameworks/engine/README.md).
import { html } from "engine";

export default function () {
  for (;;) {}
  return html(<p>never</p>);
}
