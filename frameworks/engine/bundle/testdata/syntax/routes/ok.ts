import { text } from "engine";

export default function () {
  return text("ok");
}
