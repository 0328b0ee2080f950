import { h, html } from "engine";
import { Greeting } from "../components/Greeting";

export default function () {
  const name = "<World>";
  throw new Error("boom " + name);
  return html(<Greeting name={name} />);
}
