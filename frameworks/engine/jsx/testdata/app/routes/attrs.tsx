import { h, html } from "engine";

export default function () {
  const title = `"quoted" <b> & 'single'`;
  return html(
    <a href="/x?a=1&b=2" title={title} className="c" data-n={42} hidden={true} draggable={false} onClick={() => 1} key="k" missing={null}>
      link
    </a>,
  );
}
