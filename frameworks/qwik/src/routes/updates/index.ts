/** TFB updates test: /updates?queries=N, N random World rows given new randomNumbers, written back before the response. */
import type { RequestHandler } from '@builder.io/qwik-city';
import { queryCount, updateWorlds } from '../../database';

export const onGet: RequestHandler = ({ json, query }) => {
  json(200, updateWorlds(queryCount(query)));
};
