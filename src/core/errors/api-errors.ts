// The errors of calls to the service: ConfigurationError, APIError and one subclass per status, the
// connection, timeout, abort and invalid-response errors. Every export here is public (the main entry
// re-exports this file whole); makeAPIError, the core's factory from a response to its class, is in
// make-api-error.ts.
import { safeHeaders } from '../../internal/redact.js';
import type { ErrorCode } from '../../schemas/common.js';
import { PaymentsError } from './base-error.js';
import { CallError } from './call-error.js';

export { PaymentsError } from './base-error.js';
export { CallError } from './call-error.js';
export * from './local-errors.js';

/**
 * The client's configuration is missing or invalid (no credentials, a non-https base URL, a negative
 * timeout). Thrown by the constructor, before anything is sent.
 *
 * @example
 * try {
 *   new PaymentsClient({ baseUrl: 'http://payments.example.com' });
 * } catch (err) {
 *   if (err instanceof ConfigurationError) console.error(err.message); // says which option and why
 * }
 */
export class ConfigurationError extends PaymentsError {
  override name = 'ConfigurationError';
  /** The option at fault, e.g. `baseUrl`. */
  readonly option: string;
  constructor(option: string, message: string) {
    super(`Invalid client option \`${option}\`: ${message}`);
    this.option = option;
  }
}

/**
 * Fields of an {@link APIError}.
 *
 * @example
 * const init: APIErrorInit = { status: 404, code: 'order_not_found', message: 'No such order', requestId: undefined, headers: {} };
 */
export interface APIErrorInit {
  status: number;
  code: ErrorCode | undefined;
  message: string;
  requestId: string | undefined;
  headers: Record<string, string>;
  /** Milliseconds the service asked to wait (from `Retry-After`), when it said. */
  retryAfterMs?: number | undefined;
}

/**
 * An error response of the service: a status and, in the body, a code from the spec's error table.
 *
 * @example
 * if (err instanceof APIError) console.error(err.status, err.code, `request_id ${err.requestId}`);
 */
export class APIError extends CallError {
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The service's error code (`order_already_paid`, `token_expired`, ...); undefined when the body had none. */
  readonly code: ErrorCode | undefined;
  /** The request id to quote to support. */
  readonly requestId: string | undefined;
  /** The response headers (credentials removed). */
  readonly headers: Record<string, string>;
  /** Milliseconds the service asked to wait before retrying (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: APIErrorInit, options?: { cause?: unknown }) {
    const suffix = [init.code, init.requestId && `request_id ${init.requestId}`].filter(Boolean).join(', ');
    super(`${init.status} ${init.message}${suffix ? ` (${suffix})` : ''}`, options);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.headers = safeHeaders(init.headers);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 400: the request was malformed or broke a rule (`invalid_request`, `level3_tax_mismatch`, ...).
 *
 * @example
 * if (err instanceof BadRequestError && err.code === 'level3_tax_mismatch') fixLevel3(order);
 */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/**
 * 401: the token is missing, invalid or expired, or the client was revoked.
 *
 * @example
 * if (err instanceof AuthenticationError && err.code === 'client_revoked') alertOps(err.requestId);
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/**
 * 403: the token lacks a scope, or the resource is outside the partner's scope.
 *
 * @example
 * if (err instanceof PermissionDeniedError) console.error(`missing scope? ${err.code}`);
 */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/**
 * 404: the order, payment, location or document does not exist (in the partner's scope).
 *
 * @example
 * if (err instanceof NotFoundError && err.code === 'order_not_found') return null;
 */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/**
 * 409: the state forbids it (`order_already_paid`, `payment_already_settled`, `idempotency_conflict`, ...).
 *
 * @example
 * if (err instanceof ConflictError && err.code === 'order_already_paid') return client.orders.get(orderId);
 */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/**
 * 410: a single-use resource was already used (a hosted checkout URL visited after payment).
 *
 * @example
 * if (err instanceof GoneError) return client.orders.get(orderId); // already paid: read the outcome
 */
export class GoneError extends APIError {
  override name = 'GoneError';
}
/**
 * 413: the body is over the service's size limit.
 *
 * @example
 * if (err instanceof PayloadTooLargeError) console.error('send fewer Level 3 line items');
 */
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
/**
 * 422: valid JSON that breaks a business rule (`validation_error`).
 *
 * @example
 * if (err instanceof UnprocessableEntityError) console.error(err.message, err.requestId);
 */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/**
 * 429: the client's rate limit was exceeded; `retryAfterMs` says how long to wait.
 *
 * @example
 * if (err instanceof RateLimitError) await sleep(err.retryAfterMs ?? 1_000);
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/**
 * 5xx: the service or its processor failed.
 *
 * @example
 * if (err instanceof InternalServerError) console.error(`${err.status}: quote ${err.requestId}`);
 */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/**
 * The connection failed: nothing, or not all, of a response arrived.
 *
 * @example
 * if (err instanceof APIConnectionError && err.outcomeUnknown) await client.orders.get(orderId);
 */
export class APIConnectionError extends CallError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * No response arrived within the per-attempt timeout or the total deadline.
 *
 * @example
 * if (err instanceof APIConnectionTimeoutError) console.warn('no answer in time; read the order before retrying');
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The caller's `AbortSignal` fired.
 *
 * @example
 * const order = await client.orders.get(orderId, { signal: AbortSignal.timeout(2_000) }).catch((err) => {
 *   if (err instanceof APIUserAbortError) return undefined; // we gave up; nothing to report
 *   throw err;
 * });
 */
export class APIUserAbortError extends CallError {
  override name = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A 2xx response whose body is not the JSON the endpoint documents (truncated, malformed, wrong shape).
 *
 * @example
 * if (err instanceof InvalidResponseError) console.error(err.status, err.requestId, err.message);
 */
export class InvalidResponseError extends CallError {
  override name = 'InvalidResponseError';
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(
    message: string,
    init: { status: number; requestId: string | undefined },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = init.status;
    this.requestId = init.requestId;
  }
}
