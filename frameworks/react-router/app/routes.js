// Route config: the six TechEmpower test paths (docs/tfb-rules.md) and the page
// test's /ssr and the streamed page /stream. Every route but fortunes, ssr
// and stream is a resource route (a loader returning a Response, no
// component); fortunes, ssr and stream are document routes rendered by React
// on the server and hydrated in the browser.
import { route } from '@react-router/dev/routes';

export default [
  route('json', 'routes/json.js'),
  route('plaintext', 'routes/plaintext.js'),
  route('db', 'routes/db.js'),
  route('queries', 'routes/queries.js'),
  route('updates', 'routes/updates.js'),
  route('fortunes', 'routes/fortunes.jsx'),
  route('ssr', 'routes/ssr.jsx'),
  route('stream', 'routes/stream.jsx'),
];
