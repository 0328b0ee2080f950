/** TFB plaintext test (text/plain; charset=utf-8). */
import type { RequestHandler } from '@builder.io/qwik-city';

export const onGet: RequestHandler = ({ text }) => {
  text(200, 'Hello, World!');
};
