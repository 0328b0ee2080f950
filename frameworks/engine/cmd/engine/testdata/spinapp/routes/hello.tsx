// A route that renders and logs: served by the isolate that the spin route held.
import { html, request } from "engine";

export default function () {
  const who = request.query("who");
  console.log("hello", who);
  return html(<p>hello {who}</p>);
}
