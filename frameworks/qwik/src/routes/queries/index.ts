/** TFB queries test: /queries?queries=N, N random World rows, each by its own query (N clamped to 1..500). */
import type { RequestHandler } from '@builder.io/qwik-city';
import { queryCount, randomWorlds } from '../../database';

export const onGet: RequestHandler = ({ json, query }) => {
  json(200, randomWorlds(queryCount(query)));
};
