// The root component of the tfbench solidstart adapter: the router over the
// file routes of src/routes, each page inside one Suspense boundary (as
// SolidStart's templates and e18e's framework-tracker app do), under
// @solidjs/meta's MetaProvider so a page can set its <title>.
import { MetaProvider } from '@solidjs/meta';
import { Router } from '@solidjs/router';
import { FileRoutes } from '@solidjs/start/router';
import { Suspense } from 'solid-js';

export default function App() {
  return (
    <Router
      root={(props) => (
        <MetaProvider>
          <Suspense>{props.children}</Suspense>
        </MetaProvider>
      )}
    >
      <FileRoutes />
    </Router>
  );
}
