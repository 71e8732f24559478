// Observing the mock's exchanges, for the test suite's conformance check against the OpenAPI document.
/**
 * One request the mock answered, as a test-suite observer sees it (the mock's own conformance check
 * validates every exchange against the mock's OpenAPI document). Internal: not exported by the package.
 */
export interface Exchange {
  method: string;
  url: string;
  /** The request body as text ('' when none). */
  requestBody: string;
  /** A copy of the answer, readable by the observer. */
  response: Response;
}

/** Observers of every exchange of every mock in this process; empty (and free) unless a test adds one. */
export const exchangeObservers = new Set<(exchange: Exchange) => void>();

/**
 * Runs `handle` and, when someone observes, reports the exchange with copies of both bodies. An
 * exchange an injected fault (`failNext`) shaped is not reported: it breaks the contract on purpose,
 * and a copy of a dripping or cut body would change how and when the caller receives it.
 */
export async function observed(
  request: Request,
  handle: (request: Request, markFaulted: () => void) => Promise<Response>,
): Promise<Response> {
  if (exchangeObservers.size === 0) return handle(request, () => {});
  const requestBody = await request.clone().text();
  let faulted = false;
  const response = await handle(request, () => {
    faulted = true;
  });
  if (response.type !== 'error' && !faulted) {
    for (const observer of exchangeObservers) {
      observer({ method: request.method, url: request.url, requestBody, response: response.clone() });
    }
  }
  return response;
}
