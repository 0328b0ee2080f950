// Route config: the six TechEmpower test paths (TFB-RULES.md). Every route
// but fortunes is a resource route (a loader returning a Response, no
// component); fortunes is a document route rendered by React on the server.
import { route } from '@react-router/dev/routes';

export default [
  route('json', 'routes/json.js'),
  route('plaintext', 'routes/plaintext.js'),
  route('db', 'routes/db.js'),
  route('queries', 'routes/queries.js'),
  route('updates', 'routes/updates.js'),
  route('fortunes', 'routes/fortunes.jsx'),
];
