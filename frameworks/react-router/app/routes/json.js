// TFB json test: a resource route; the object is built and serialized on
// every request.

/** GET /json: {"message":"Hello, World!"} as application/json. */
export function loader() {
  return Response.json({ message: 'Hello, World!' });
}
