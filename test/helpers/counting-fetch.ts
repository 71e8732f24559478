/** A `fetch` into a mock that counts token requests and API requests apart. */
export interface RequestCounts {
  token: number;
  api: number;
}

/** Sends every request to `mock.fetch`, counting it in `counts` first. */
export function countingFetch(
  mock: { fetch(request: Request): Promise<Response> },
  counts: RequestCounts,
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/oauth2/token')) counts.token++;
    else counts.api++;
    return mock.fetch(request);
  };
}
