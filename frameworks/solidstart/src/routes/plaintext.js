// TFB plaintext test (an API route).
/** GET /plaintext: "Hello, World!" as text/plain. */
export function GET() {
  return new Response('Hello, World!', {
    headers: { 'Content-Type': 'text/plain' },
  });
}
