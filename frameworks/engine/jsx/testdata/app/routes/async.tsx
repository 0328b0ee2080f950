import { h, html } from "engine";
import { Card, Later } from "../components/Card";

export default function () {
  return html(
    <html>
      <body>
        <Card title="A & B">
          <Later value="<late>" />
          <span>sync</span>
          {[<Later value="one" />, "two"]}
        </Card>
      </body>
    </html>,
  );
}
