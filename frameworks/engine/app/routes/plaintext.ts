// TFB plaintext test: "Hello, World!" as text/plain (TFB-RULES.md, plaintext).
import { text } from "engine";

export default function () {
  return text("Hello, World!");
}
