import { json } from "engine";

export default function () {
  return json({ message: "Hello, World!" });
}
