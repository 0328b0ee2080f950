// The server entry: React Router's default Node entry (`react-router reveal
// entry.server`), changed only to send the charset the fortunes test requires
// (TFB rules: Content-Type text/html; charset=utf-8), the Server header, and
// to stream the streamed page (/stream) to bots too. Documents are rendered
// with renderToPipeableStream and streamed once the shell is ready; bots
// (isbot: tfbench's User-Agent is one) wait for all content, except on
// /stream, whose shell goes first for every User-Agent.
import { PassThrough } from 'node:stream';

import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter } from 'react-router';

import { SERVER_NAME } from './server-name.js';

/** How long (ms) a streamed render may wait for suspended data before it is aborted. */
export const streamTimeout = 5_000;

/** Renders the matched routes to an HTML Response (React Router calls it for document requests). */
export default function handleRequest(request, responseStatusCode, responseHeaders, routerContext) {
  // The root middleware names the server on every response of a matched
  // route; a document no route matched (a 404 page) only passes here.
  responseHeaders.set('Server', SERVER_NAME);

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');

    // Bots and SPA mode wait for all content; browsers get the shell first,
    // and so does every User-Agent on the streamed page (/stream).
    const waitForAll =
      (userAgent && isbot(userAgent) && new URL(request.url).pathname !== '/stream') || routerContext.isSpaMode;
    const readyOption = waitForAll ? 'onAllReady' : 'onShellReady';

    // Abort the render after streamTimeout so rejected boundaries can flush.
    let timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');

          pipe(body);

          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error) {
          reject(error);
        },
        onError(error) {
          responseStatusCode = 500;
          // Errors inside the shell are logged by React Router itself.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
