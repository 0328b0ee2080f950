// TFB json test (an API route: a route file exporting GET and no page).
/** GET /json: {"message":"Hello, World!"}, the object built and serialized on every request. */
export function GET() {
  return new Response(JSON.stringify({ message: 'Hello, World!' }), {
    headers: { 'Content-Type': 'application/json' },
  });
}
