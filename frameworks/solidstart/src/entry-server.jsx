// @refresh reload
// Server entry: the HTML document around every page (SolidStart's default
// streaming render). Each page sets its <title> with @solidjs/meta, which
// SolidStart renders into {assets}.
import { createHandler, StartServer } from '@solidjs/start/server';

export default createHandler(() => (
  <StartServer
    document={({ assets, children, scripts }) => (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          {assets}
        </head>
        <body>
          <div id="app">{children}</div>
          {scripts}
        </body>
      </html>
    )}
  />
));
