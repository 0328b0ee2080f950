/**
 * The document shell every page renders in: <head> with the charset and the
 * route's title (its `head` export), <body> with the route's component.
 */
import { component$ } from '@builder.io/qwik';
import { QwikCityProvider, RouterOutlet, useDocumentHead } from '@builder.io/qwik-city';

/** <title> from the current route's DocumentHead. */
const RouterHead = component$(() => {
  const head = useDocumentHead();
  return <title>{head.title}</title>;
});

export default component$(() => {
  return (
    <QwikCityProvider>
      <head>
        <meta charset="utf-8" />
        <RouterHead />
      </head>
      <body>
        <RouterOutlet />
      </body>
    </QwikCityProvider>
  );
});
