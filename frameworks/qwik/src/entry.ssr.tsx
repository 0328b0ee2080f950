/**
 * SSR entry (the Qwik starter's): renders the app to a stream for every page
 * request. The node-server entry passes it to Qwik City's router.
 */
import { renderToStream, type RenderToStreamOptions } from '@builder.io/qwik/server';
import Root from './root';

export default function (opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    containerAttributes: {
      lang: 'en',
      ...opts.containerAttributes,
    },
  });
}
