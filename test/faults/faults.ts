/**
 * The catalog of injected faults: what each one does to an attempt on the wire, and whether the
 * service acted on the request before misbehaving. "Processed" faults are the worst case for a
 * retry: the order, payment or refund exists although the client saw a failure, so a careless
 * retry would create a second one.
 */
import type { ServerResponse } from 'node:http';

export const FAULT_NAMES = [
  'refused',
  'reset_before_response',
  'reset_mid_body',
  'slow',
  'status_500',
  'status_502_html',
  'status_503_retry_after',
  'status_429_seconds',
  'status_429_date',
  'token_expired',
  'malformed_json',
  'truncated_json',
  'unexpected_shape',
  'not_json',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** The error classes a fault can surface as (names exported by the package). */
export type ErrorClassName =
  | 'APIConnectionError'
  | 'APIConnectionTimeoutError'
  | 'InternalServerError'
  | 'RateLimitError'
  | 'AuthenticationError'
  | 'InvalidResponseError';

export interface FaultInfo {
  /** How the fault reads in the docs table. */
  label: string;
  /** Whether the service applied the request's side effect before misbehaving. */
  processed: boolean;
  /** The error a call gets when it is not retried, or when the fault outlasts every retry. */
  error: ErrorClassName;
}

const fault = (label: string, processed: boolean, error: ErrorClassName): FaultInfo => ({
  label,
  processed,
  error,
});

export const FAULTS: Record<FaultName, FaultInfo> = {
  refused: fault('connection refused (closed port)', false, 'APIConnectionError'),
  reset_before_response: fault('connection reset before the response', true, 'APIConnectionError'),
  reset_mid_body: fault('connection reset in the middle of the body', true, 'APIConnectionError'),
  slow: fault('response slower than the timeout', true, 'APIConnectionTimeoutError'),
  status_500: fault('500 `internal_error`', true, 'InternalServerError'),
  status_502_html: fault('502 with an HTML body (proxy)', true, 'InternalServerError'),
  status_503_retry_after: fault('503 with `Retry-After: 0`', true, 'InternalServerError'),
  status_429_seconds: fault('429 with `Retry-After: 0` (seconds)', false, 'RateLimitError'),
  status_429_date: fault('429 with `Retry-After` as an HTTP date (now)', false, 'RateLimitError'),
  token_expired: fault('401 `token_expired`', false, 'AuthenticationError'),
  malformed_json: fault('2xx with malformed JSON', true, 'InvalidResponseError'),
  truncated_json: fault('2xx with truncated JSON (complete response)', true, 'InvalidResponseError'),
  unexpected_shape: fault('2xx JSON of an unexpected shape', true, 'InvalidResponseError'),
  not_json: fault('2xx with `Content-Type: text/html`', true, 'InvalidResponseError'),
};

/** How long a `slow` response takes: far beyond the small timeouts the tests give the client. */
export const SLOW_RESPONSE_MS = 12_000;

/** The answer the service would give without a fault. */
export interface NormalResponse {
  status: number;
  body: unknown;
}

function send(res: ServerResponse, status: number, contentType: string, text: string, extra = {}): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    'x-request-id': 'req_fault',
    ...extra,
  });
  res.end(text);
}

function errorBody(error: string, message: string): string {
  return JSON.stringify({ error, message, request_id: 'req_fault' });
}

const JSON_TYPE = 'application/json';

/** Sends the normal response. */
export function answer(res: ServerResponse, normal: NormalResponse): void {
  send(res, normal.status, JSON_TYPE, JSON.stringify(normal.body));
}

interface Canned {
  status: number;
  contentType: string;
  text: string;
  headers?: Record<string, string>;
}

/** The fault's response, for faults that answer (all but the connection-level ones). */
function canned(fault: FaultName, normal: NormalResponse): Canned | undefined {
  const text = JSON.stringify(normal.body);
  switch (fault) {
    case 'status_500':
      return { status: 500, contentType: JSON_TYPE, text: errorBody('internal_error', 'Injected failure.') };
    case 'status_502_html':
      return {
        status: 502,
        contentType: 'text/html',
        text: '<html><body><h1>502 Bad Gateway</h1></body></html>',
      };
    case 'status_503_retry_after':
      return {
        status: 503,
        contentType: JSON_TYPE,
        text: errorBody('service_unavailable', 'Maintenance.'),
        headers: { 'retry-after': '0' },
      };
    case 'status_429_seconds':
    case 'status_429_date':
      return {
        status: 429,
        contentType: JSON_TYPE,
        text: errorBody('rate_limit_exceeded', 'Slow down.'),
        // A date of now has whole seconds, so it is already past: no wait.
        headers: { 'retry-after': fault === 'status_429_date' ? new Date().toUTCString() : '0' },
      };
    case 'token_expired':
      return {
        status: 401,
        contentType: JSON_TYPE,
        text: errorBody('token_expired', 'The access token has expired.'),
      };
    case 'malformed_json':
      return { status: normal.status, contentType: JSON_TYPE, text: '{"status": pending, "amount_cents": }' };
    case 'truncated_json':
      return { status: normal.status, contentType: JSON_TYPE, text: text.slice(0, text.length >> 1) };
    case 'unexpected_shape':
      return {
        status: normal.status,
        contentType: JSON_TYPE,
        text: JSON.stringify({ data: { id: 42 }, ok: true }),
      };
    case 'not_json':
      return {
        status: normal.status,
        contentType: 'text/html',
        text: '<html><body>Welcome to the portal</body></html>',
      };
    default:
      return undefined;
  }
}

/**
 * Misbehaves on `res` as `fault` says. `normal` is the response the request earned (present when
 * the fault is a processed one). `refused` never reaches the server (see refused-dispatcher.ts).
 */
export function misbehave(fault: FaultName, res: ServerResponse, normal: NormalResponse): void {
  const response = canned(fault, normal);
  if (response) {
    send(res, response.status, response.contentType, response.text, response.headers);
    return;
  }
  const text = JSON.stringify(normal.body);
  if (fault === 'reset_before_response') {
    res.socket?.resetAndDestroy();
  } else if (fault === 'reset_mid_body') {
    res.writeHead(normal.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
    // Let the head and half the body reach the client before the reset.
    res.write(text.slice(0, text.length >> 1), () => setTimeout(() => res.socket?.resetAndDestroy(), 5));
  } else if (fault === 'slow') {
    const timer = setTimeout(() => answer(res, normal), SLOW_RESPONSE_MS);
    res.on('close', () => clearTimeout(timer));
  } else {
    throw new Error(`fault ${fault} is not played by the server`);
  }
}
