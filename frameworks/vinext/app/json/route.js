// TFB json test: the object built and serialized on every request.

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ message: 'Hello, World!' });
}
