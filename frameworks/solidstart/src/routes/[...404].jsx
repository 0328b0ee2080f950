// Any other path: a 404 page (SolidStart answers 200 with an empty page otherwise).
import { HttpStatusCode } from '@solidjs/start';

export default function NotFound() {
  return (
    <>
      <HttpStatusCode code={404} />
      <p>Not Found</p>
    </>
  );
}
