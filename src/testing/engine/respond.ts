// How the mock answers: MockApiError (the service's error envelope), MockControlError (a refused test
// control), Reply (a whole answer as plain data), and the builders of JSON, HTML, redirect and error replies.
import { randomBytes } from 'node:crypto';
import { redact } from '../../internal/redact.js';

/** An error the mock answers with the service's error envelope `{ error, message, request_id }`. */
export class MockApiError extends Error {
  override readonly name = 'MockApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Why a control of the mock refused: `not_found` (an unknown id), `conflict` (the state does not fit,
 * e.g. settling a pending payment; nothing changed) or `invalid` (a bad argument).
 *
 * @example
 * const code: MockControlErrorCode = 'conflict';
 */
export type MockControlErrorCode = 'not_found' | 'conflict' | 'invalid';

const CONTROL_STATUS: Record<MockControlErrorCode, 400 | 404 | 409> = {
  not_found: 404,
  conflict: 409,
  invalid: 400,
};

/**
 * Thrown by the mock's test controls (approve a payment that is not pending, an unknown id). A control
 * that throws changed nothing. `status` is the HTTP status a control API answers with.
 *
 * @example
 * expect(() => mock.processor.settle(pendingPaymentId)).toThrow(MockControlError);
 * try { mock.processor.settle(id); } catch (e) { if (e instanceof MockControlError) res.status(e.status); }
 */
export class MockControlError extends Error {
  override readonly name = 'MockControlError';
  /** 404 for `not_found`, 409 for `conflict`, 400 for `invalid`. */
  readonly status: 400 | 404 | 409;
  constructor(
    message: string,
    /** @default 'conflict' */
    readonly code: MockControlErrorCode = 'conflict',
  ) {
    super(message);
    this.status = CONTROL_STATUS[code];
  }
}

let requestCounter = 0;
const requestPrefix = `req_${randomBytes(4).toString('hex')}`;

/** A request id, unique within the process: a random prefix and a counter (`req_1a2b3c4d000000f3`). */
export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 0x100000000;
  return `${requestPrefix}${requestCounter.toString(16).padStart(8, '0')}`;
}

/**
 * A whole answer as plain data: status, headers and the body text. The loopback server writes it in
 * one go (no stream, no fetch `Response`); `toResponse()` makes a fetch `Response` of it for
 * `mock.fetch`, msw and the faults that spoil a body.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string | null,
    readonly headers: Record<string, string>,
  ) {}

  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: this.headers });
  }
}

/** What the engine answers: a {@link Reply}, or a fetch `Response` (a fault's stream or reset). */
export type Answer = Reply | Response;

/** The answer as a fetch `Response`. */
export function toResponse(answer: Answer): Response {
  return answer instanceof Reply ? answer.toResponse() : answer;
}

export function json(
  status: number,
  body: unknown,
  requestId: string,
  headers?: Record<string, string>,
): Reply {
  return jsonText(status, JSON.stringify(body), requestId, headers);
}

/** A JSON answer whose body is already serialized (a cached view). */
export function jsonText(
  status: number,
  text: string,
  requestId: string,
  headers?: Record<string, string>,
): Reply {
  const all: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (headers) Object.assign(all, headers);
  return new Reply(status, text, all);
}

export function errorResponse(error: MockApiError, requestId: string): Reply {
  return json(
    error.status,
    { error: error.code, message: error.message, request_id: requestId },
    requestId,
    error.headers,
  );
}

/** The 500 for an error nobody expected; redacted, since its message may quote a URL or body with a token. */
export function unexpectedErrorResponse(error: unknown, requestId: string): Reply {
  const detail = redact(error instanceof Error ? error.message : String(error));
  return json(
    500,
    {
      error: 'internal_error',
      message: `The mock hit an unexpected error: ${detail}`,
      request_id: requestId,
    },
    requestId,
  );
}

export function html(
  status: number,
  body: string,
  requestId: string,
  headers: Record<string, string> = {},
): Reply {
  return new Reply(status, body, {
    'content-type': 'text/html; charset=utf-8',
    'x-request-id': requestId,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    ...headers,
  });
}

export function redirect(location: string, requestId: string): Reply {
  return new Reply(303, null, { location, 'x-request-id': requestId });
}

/** Shorthands for the errors the routes raise. */
export const fail = {
  invalidRequest: (message: string) => new MockApiError(400, 'invalid_request', message),
  validation: (message: string) => new MockApiError(422, 'validation_error', message),
  notFound: (code: string, what: string) => new MockApiError(404, code, `${what} not found in your scope`),
  conflict: (code: string, message: string) => new MockApiError(409, code, message),
};
