import { h, html } from "engine";
import { Card } from "../components/Card";

function Item(props: { n: number; children?: unknown }) {
  return <li data-n={props.n}>{props.children as string}</li>;
}

function List(props: { items: string[] }) {
  return <ol>{props.items.map((s, i) => <Item n={i + 1}>{s}</Item>)}</ol>;
}

export default function () {
  return html(
    <html lang="en">
      <body>
        <Card title="Nested">
          <List items={["x<y", "z"]} />
        </Card>
      </body>
    </html>,
  );
}
