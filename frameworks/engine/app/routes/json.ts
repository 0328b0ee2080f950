// TFB json test: {"message":"Hello, World!"} built and serialized on every request (docs/tfb-rules.md, json).
import { json } from "engine";

export default function () {
  return json({ message: "Hello, World!" });
}
