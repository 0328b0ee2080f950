// TFB plaintext test: a resource route.

/** GET /plaintext: "Hello, World!" as text/plain. */
export function loader() {
  return new Response('Hello, World!', { headers: { 'Content-Type': 'text/plain' } });
}
