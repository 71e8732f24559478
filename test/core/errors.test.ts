import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PaymentsError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { describeTransports } from '../helpers/transports.js';

const Thing = z.looseObject({ id: z.string(), amount_cents: z.number() });
const get = {
  method: 'GET',
  path: '/pos/v1/thing',
  retry: 'safe',
  response: Thing,
  options: { maxRetries: 0 },
} as const;

// Spec section 7, every row (503's code is `service_unavailable`, api.md section 9).
const TABLE: [number, string | undefined, typeof APIError][] = [
  [400, 'invalid_request', BadRequestError],
  [400, 'invalid_scope', BadRequestError],
  [400, 'level3_tax_mismatch', BadRequestError],
  [400, 'level3_validation_failed', BadRequestError],
  [400, 'amount_exceeds_order_total', BadRequestError],
  [401, 'missing_token', AuthenticationError],
  [401, 'client_revoked', AuthenticationError],
  [403, 'insufficient_scope', PermissionDeniedError],
  [403, 'location_out_of_scope', PermissionDeniedError],
  [403, 'permission_denied', PermissionDeniedError],
  [404, 'order_not_found', NotFoundError],
  [404, 'payment_not_found', NotFoundError],
  [404, 'location_not_found', NotFoundError],
  [404, 'spec_not_available', NotFoundError],
  [409, 'order_already_paid', ConflictError],
  [409, 'order_not_open', ConflictError],
  [409, 'payment_already_settled', ConflictError],
  [409, 'refund_window_expired', ConflictError],
  [409, 'idempotency_conflict', ConflictError],
  [422, 'validation_error', UnprocessableEntityError],
  [429, 'rate_limit_exceeded', RateLimitError],
  [500, 'internal_error', InternalServerError],
  [503, 'service_unavailable', InternalServerError],
  [410, undefined, GoneError],
];

describeTransports('error mapping', (t) => {
  it.each(TABLE)('%i %s -> its class with status, code and requestId', async (status, code, Class) => {
    const body = code
      ? { error: code, message: `about ${code}`, request_id: `req-${status}-${code}` }
      : { message: 'Gone', request_id: 'req-410' };
    t.use(http.get('*/pos/v1/thing', () => HttpResponse.json(body, { status })));
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(PaymentsError);
    expect(error).toMatchObject({ status, code, requestId: body.request_id });
    expect((error as Error).message).toContain(body.message);
  });

  it('a 429 carries retryAfterMs', async () => {
    t.use(
      http.get('*/pos/v1/thing', () =>
        HttpResponse.json(
          { error: 'rate_limit_exceeded', message: 'x', request_id: 'r' },
          { status: 429, headers: { 'Retry-After': '7' } },
        ),
      ),
    );
    await expect(t.client().request(get)).rejects.toMatchObject({ retryAfterMs: 7000 });
  });

  it('an HTML 502 from a proxy gives InternalServerError with the X-Request-Id header', async () => {
    t.use(
      http.get('*/pos/v1/thing', () =>
        HttpResponse.html('<html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 502,
          headers: { 'X-Request-Id': 'edge-123' },
        }),
      ),
    );
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: undefined, requestId: 'edge-123' });
    expect((error as Error).message).not.toContain('<html>');
  });

  it.each([
    ['truncated JSON', '{"id": "abc", "amount_ce', 'application/json'],
    ['malformed JSON', '{id: abc}', 'application/json'],
    ['an empty body', '', 'application/json'],
    ['an HTML page', '<html>maintenance</html>', 'text/html'],
  ])('a 200 with %s gives InvalidResponseError, never a SyntaxError', async (_name, text, type) => {
    t.use(
      http.get(
        '*/pos/v1/thing',
        () =>
          new HttpResponse(text, { status: 200, headers: { 'content-type': type, 'x-request-id': 'rid-9' } }),
      ),
    );
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toBeInstanceOf(PaymentsError);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect(error).toMatchObject({ status: 200, requestId: 'rid-9' });
    expect(t.requests('GET', '/pos/v1/thing')).toHaveLength(1);
  });

  it('a 200 of the wrong shape gives InvalidResponseError naming the field, not its value', async () => {
    t.use(
      http.get('*/pos/v1/thing', () => HttpResponse.json({ id: 'hosted_token_abc', amount_cents: 'ten' })),
    );
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('amount_cents');
    expect((error as Error).message).not.toContain('ten');
  });

  it('unknown fields pass through the lenient response schema', async () => {
    t.use(http.get('*/pos/v1/thing', () => HttpResponse.json({ id: 'a', amount_cents: 5, new_field: [1] })));
    await expect(t.client().request(get)).resolves.toEqual({ id: 'a', amount_cents: 5, new_field: [1] });
  });
});
