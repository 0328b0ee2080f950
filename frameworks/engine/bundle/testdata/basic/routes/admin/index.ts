import { text } from "engine";

export const revalidate = 5;

export default function () {
  return text("admin");
}
