// Playing an injected fault (`mock.failNext`) on one exchange: delays, connection resets, error
// answers, and spoiled or dripping bodies.
import type { InternalClock } from '../clock.js';
import { type Answer, errorResponse, MockApiError, toResponse } from '../engine/respond.js';
import { defaultErrorCode } from './fault-queue.js';
import type { FaultSpec } from './fault-spec.js';

// How an injected fault shapes one exchange. The router plays it around the route, handed
// `playFault` and the mock clock by create-mock-service.ts (the router stands below the faults and
// does not import them); every wait is on the mock clock, so a test decides when a delayed or
// dripping answer moves on.

/** What the route would answer; called once, and only when the fault lets the route run. */
export type RouteAnswer = () => Promise<Answer>;

/**
 * Answers a request that met `fault`: `before` waits, then resets or answers the error without
 * running the route; `after` runs the route (its effect commits), waits, then resets or replaces the
 * answer. Either way the body is then spoiled (`body`) and dripped (`drip`) as the spec says.
 */
export async function playFault(
  fault: FaultSpec,
  route: RouteAnswer,
  clock: InternalClock,
  requestId: string,
): Promise<Response> {
  const after = fault.phase === 'after';
  let response: Response | undefined;
  if (after) response = toResponse(await route());
  if (fault.delayMs) await clock.sleep(fault.delayMs);
  if (fault.network) {
    // The route's answer is dropped on the floor: its body is never read.
    await response?.body?.cancel();
    return Response.error();
  }
  if (fault.status !== undefined) {
    await response?.body?.cancel();
    response = faultAnswer(fault, fault.status, requestId);
  }
  response ??= toResponse(await route());
  return drip(await spoil(response, fault), fault, clock);
}

function faultAnswer(fault: FaultSpec, status: number, requestId: string): Response {
  // A 429 always carries Retry-After, as the service's does (spec 7): 0 s unless the fault says.
  const retryAfter = fault.retryAfter ?? (status === 429 ? 0 : undefined);
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  const code = fault.error ?? defaultErrorCode(status);
  const error = new MockApiError(status, code, fault.message ?? 'Injected fault', headers);
  return errorResponse(error, requestId).toResponse();
}

const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An HTML error page, as a proxy or load balancer in front of the service sends one. */
export function htmlPage(status: number): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`;
}

function withBody(
  response: Response,
  body: ConstructorParameters<typeof Response>[0],
  contentType?: string,
): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (contentType) headers.set('content-type', contentType);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function spoil(response: Response, fault: FaultSpec): Promise<Response> {
  const { body } = fault;
  if (body === undefined) return response;
  if (typeof body === 'object') {
    await response.body?.cancel();
    return withBody(response, body.text, body.contentType ?? 'application/json');
  }
  if (body === 'html') {
    await response.body?.cancel();
    return withBody(response, htmlPage(response.status), 'text/html; charset=utf-8');
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.max(1, bytes.byteLength >> 1));
  if (body === 'truncated') return withBody(response, half);
  // `cut`: the head and half the body go out, then the connection breaks, as undici reports it.
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new TypeError('terminated', { cause: resetCause() }));
        return;
      }
      sent = true;
      controller.enqueue(half);
    },
  });
  return withBody(response, stream);
}

/** The cause undici gives when the other side resets the connection. */
export function resetCause(): Error {
  return Object.assign(new Error('other side closed (connection reset by the mock: failNext)'), {
    code: 'UND_ERR_SOCKET',
  });
}

async function drip(response: Response, fault: FaultSpec, clock: InternalClock): Promise<Response> {
  if (!fault.drip) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const count = Math.min(fault.drip.chunks ?? 4, Math.max(1, bytes.byteLength));
  const size = Math.ceil(bytes.byteLength / count);
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // The first piece goes out at once, each next one `everyMs` later on the mock clock.
      if (index > 0) await clock.sleep(fault.drip!.everyMs);
      controller.enqueue(bytes.subarray(index * size, (index + 1) * size));
      index++;
      if (index >= count) controller.close();
    },
  });
  return withBody(response, stream);
}
