// html()'s doctype (host.ts): an <html> root gets it whether the page is an element (Markup.doc), raw text or a
// fragment (its text read); a custom element whose name starts with "html" does not. ?root= picks the page.
import { h, html, raw, request } from "engine";

function Page() {
  return (
    <html>
      <body>c</body>
    </html>
  );
}

export default function () {
  switch (request.query("root")) {
    case "component":
      return html(<Page />);
    case "fragment":
      return html(
        <>
          <html>
            <body>f</body>
          </html>
        </>,
      );
    case "raw":
      return html("<html><body>r</body></html>");
    case "rawmarkup":
      return html(raw("<html lang=x>m</html>"));
    case "custom":
      return html(<html-x>x</html-x>);
    default:
      return html(<div>d</div>);
  }
}
