/** TFB json test: the object built and serialized on every request (application/json; charset=utf-8). */
import type { RequestHandler } from '@builder.io/qwik-city';

export const onGet: RequestHandler = ({ json }) => {
  json(200, { message: 'Hello, World!' });
};
