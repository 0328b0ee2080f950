// React Router framework config: server rendering on every request (the
// default, stated here because the fortunes test forbids prerendering), ESM
// server build at build/server/index.js, browser assets under build/client.

/** @type {import('@react-router/dev/config').Config} */
export default {
  ssr: true,
};
