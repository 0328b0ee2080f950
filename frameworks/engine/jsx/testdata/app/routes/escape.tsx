import { h, html } from "engine";

export default function () {
  return html(<p>{'<script>alert("x")</script>'} it's a & b</p>);
}
