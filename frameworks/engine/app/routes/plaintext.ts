// TFB plaintext test: "Hello, World!" as text/plain (docs/tfb-rules.md, plaintext).
import { text } from "engine";

export default function () {
  return text("Hello, World!");
}
