import { h } from "engine";

export function Greeting(props: { name: string }) {
  return <p class="greeting">Hello, {props.name}!</p>;
}
