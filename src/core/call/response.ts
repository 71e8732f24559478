// Reading a response: a 2xx body parsed as JSON and checked against the lenient schema (the SDK's
// compiled check, or the zod schema given to `client.request()`), else an InvalidResponseError; and the
// typed APIError of a non-2xx response.
import type { z } from 'zod';
import { issueLine } from '../../internal/issues.js';
import { requestIdOf } from '../../internal/request-id.js';
import { type APIError, InvalidResponseError } from '../errors/api-errors.js';
import { makeAPIError } from '../errors/make-api-error.js';
import { honoursRetryAfter, parseRetryAfter } from '../limits/retry.js';
import type { TransportResponse } from '../transport/transport.js';

/** The body as JSON when it is JSON, else its text (an HTML page from a proxy), else undefined. */
function readBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Reads a 2xx response: JSON, then the lenient response schema. Anything else (not JSON, truncated,
 * the wrong shape) is an {@link InvalidResponseError}; never a bare `SyntaxError`. `unreadable`
 * marks a body that is not JSON at all (empty, truncated, malformed): an answer lost on the way. Messages never
 * quote the body: it may hold a secret (a hosted checkout URL, a signing secret).
 */
export function parseSuccess<S extends z.ZodType>(
  res: TransportResponse,
  schema: S,
  call: { method: string; path: string },
):
  | { ok: true; value: z.infer<S>; requestId: string | undefined }
  | { ok: false; error: InvalidResponseError; unreadable: boolean } {
  const contentType = res.headers['content-type'];
  let requestId = res.headers['x-request-id'];
  if (contentType !== undefined && contentType !== 'application/json' && !/\bjson\b/i.test(contentType)) {
    return failed(res, call, requestId, `with content-type ${contentType.split(';')[0]} instead of JSON`);
  }
  let data: unknown;
  try {
    data = JSON.parse(res.bodyText);
  } catch {
    return failed(
      res,
      call,
      requestId,
      res.bodyText === ''
        ? 'with an empty body'
        : `with a body that is not valid JSON (${res.bodyText.length} characters, malformed or truncated)`,
      true,
    );
  }
  requestId = requestIdOf(data, res.headers);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => issueLine(i, '(body)'))
      .join('; ');
    return failed(res, call, requestId, `with a body that does not match the documented shape (${issues})`);
  }
  return { ok: true, value: parsed.data, requestId };
}

function failed(
  res: TransportResponse,
  call: { method: string; path: string },
  requestId: string | undefined,
  why: string,
  unreadable = false,
): { ok: false; error: InvalidResponseError; unreadable: boolean } {
  const message = `${call.method} ${call.path} answered ${res.status} but ${why}.`;
  return {
    ok: false,
    unreadable,
    error: new InvalidResponseError(message, { status: res.status, requestId }),
  };
}

/** The typed error of a non-2xx response, with `Retry-After` read on 429 and 503. */
export function errorFromResponse(res: TransportResponse): APIError {
  const retryAfterMs = honoursRetryAfter(res.status)
    ? parseRetryAfter(res.headers['retry-after'], Date.now())
    : undefined;
  return makeAPIError(res.status, readBody(res.bodyText), res.headers, retryAfterMs);
}
