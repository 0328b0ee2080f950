import { h, html } from "engine";

export default function () {
  return html(<br>text</br>);
}
