import { text } from "engine";
export default () => text("a");
