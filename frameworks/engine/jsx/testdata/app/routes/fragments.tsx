import { h, Fragment, html } from "engine";

export default function () {
  return html(
    <>
      <b>one</b>
      <>
        <i>two</i>
        {"three & four"}
      </>
      <Fragment>
        <u>five</u>
      </Fragment>
    </>,
  );
}
