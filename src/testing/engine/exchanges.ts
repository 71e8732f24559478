// Observing the mock's exchanges, for the test suite's conformance check against the OpenAPI document.
import type { Incoming } from './incoming.js';
import { type Answer, Reply } from './respond.js';

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
  incoming: Incoming,
  handle: (incoming: Incoming, markFaulted: () => void) => Promise<Answer>,
): Promise<Answer> {
  if (exchangeObservers.size === 0) return handle(incoming, () => {});
  let faulted = false;
  const answer = await handle(incoming, () => {
    faulted = true;
  });
  if (faulted || (!(answer instanceof Reply) && answer.type === 'error')) return answer;
  const requestBody = new TextDecoder().decode(incoming.body);
  for (const observer of exchangeObservers) {
    const response = answer instanceof Reply ? answer.toResponse() : answer.clone();
    observer({ method: incoming.method, url: incoming.url, requestBody, response });
  }
  return answer;
}
