import { h, Fragment, type Child } from "engine";

export function Title(props: { text: string }) {
  return <h2>{props.text}</h2>;
}

export function Card(props: { title: string; children?: Child }) {
  return (
    <section class="card">
      <Title text={props.title} />
      <>{props.children}</>
    </section>
  );
}

export async function Later(props: { value: string }) {
  await null;
  return <em>{props.value}</em>;
}
