// The one factory from an error response to its APIError class, used by the core when a response
// fails. Not exported by the package: partners build an error with its class (`new ConflictError({...})`).
import { requestIdOf } from '../../internal/request-id.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './api-errors.js';

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * The one factory from an error response to its class. `body` is whatever arrived: the service's
 * `{error, message, request_id}` envelope, another JSON value, or text (an HTML page from a proxy).
 *
 * @example
 * const err = makeAPIError(409, { error: 'order_already_paid', message: 'Paid', request_id: 'req_1' }, {});
 * err instanceof ConflictError; // true
 */
export function makeAPIError(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  retryAfterMs?: number,
): APIError {
  const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof envelope.error === 'string' ? envelope.error : undefined;
  const requestId = requestIdOf(body, headers);
  let message: string;
  if (typeof envelope.message === 'string') message = envelope.message;
  else if (typeof body === 'string' && body.trim() && !/^\s*</.test(body))
    message = body.trim().slice(0, 200);
  else message = defaultMessage(status);
  const Class = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Class({ status, code, message, requestId, headers, retryAfterMs });
}

function defaultMessage(status: number): string {
  if (status >= 500) return 'The service failed to answer (no error body)';
  return `Request failed with status ${status}`;
}
