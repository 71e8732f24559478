// `requestIdOf()`: the service's request id of a response, from its body or its headers.
/** The service's request id: the body's `request_id`, else the `X-Request-Id` header. */
export function requestIdOf(body: unknown, headers: Record<string, string>): string | undefined {
  if (typeof body === 'object' && body !== null) {
    const id = (body as { request_id?: unknown }).request_id;
    if (typeof id === 'string') return id;
  }
  return headers['x-request-id'];
}
