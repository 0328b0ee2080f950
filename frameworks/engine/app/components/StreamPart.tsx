// One part of the stream page (docs/ssr.md, The streamed page): its own table of the page test's Row components.
import { h } from "engine";
import type { World } from "../lib/world";
import { Row } from "./WorldTable";

/** <table class="part" data-part=K><tbody> with one Row per world. */
export function StreamPart(props: { part: number; worlds: World[] }) {
  return (
    <table class="part" data-part={props.part}>
      <tbody>
        {props.worlds.map((w) => (
          <Row world={w} />
        ))}
      </tbody>
    </table>
  );
}
