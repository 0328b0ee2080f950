/** TFB db test: one random World row as {"id":N,"randomNumber":M}. */
import type { RequestHandler } from '@builder.io/qwik-city';
import { randomWorld } from '../../database';

export const onGet: RequestHandler = ({ json }) => {
  json(200, randomWorld());
};
