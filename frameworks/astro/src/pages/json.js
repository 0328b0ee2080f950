// TFB json test: the object built and serialized on every request.
/** GET /json: {"message":"Hello, World!"} as application/json. */
export function GET() {
  return new Response(JSON.stringify({ message: 'Hello, World!' }), {
    headers: { 'Content-Type': 'application/json' },
  });
}
