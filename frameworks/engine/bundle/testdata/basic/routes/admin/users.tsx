import { h, html } from "engine";

export default async function () {
  return html(<ul><li>ann</li></ul>);
}
