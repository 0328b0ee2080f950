// TFB fortunes test: every Fortune row plus one added at request time, sorted by message in UTF-8 byte order in
// code, rendered as an escaped HTML table (docs/tfb-rules.md, fortunes; the page of shared/fortunes-expected.html).
import { db, h, html } from "engine";
import { FortunesTable, type Fortune } from "../components/FortunesTable";
import { Layout } from "../components/Layout";

/**
 * UTF-8 byte order of two strings, as node-http's Buffer.compare of their UTF-8 encodings: UTF-16 code units
 * compare in code point order except that surrogates (D800–DFFF, code points above FFFF) must sort after
 * E000–FFFF, so units from D800 up are shifted before comparing.
 */
function compareUTF8(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

export default function () {
  const fortunes = db.all<Fortune>("SELECT id, message FROM Fortune");
  fortunes.push({ id: 0, message: "Additional fortune added at request time." });
  fortunes.sort((a, b) => compareUTF8(a.message, b.message));
  return html(
    <Layout title="Fortunes">
      <FortunesTable fortunes={fortunes} />
    </Layout>,
  );
}
