// The HTML page around a route's content: <html><head><title>…</title></head><body>…</body></html>, nothing else
// (no hydration markup; html() adds the doctype).
import { h, type Child } from "engine";

export function Layout(props: { title: string; children?: Child }) {
  return (
    <html>
      <head>
        <title>{props.title}</title>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
