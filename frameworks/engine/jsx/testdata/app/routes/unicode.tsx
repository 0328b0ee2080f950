import { html, raw, renderToString } from "engine";

// Text above U+007F in every place a page takes text: a static literal, a child, an attribute, raw(), an astral
// character and a lone surrogate (U+FFFD on the page).
export default function () {
  const name = "Zoë — フレーム";
  const inner = renderToString(<i>é</i>) as string;
  return html(
    <p title={name} data-static="…">
      café — {name} {raw("<b>ß</b>")} 𝄞 {"x\ud800y"} {inner.length}
    </p>,
  );
}
