import { describe, expect, it } from 'vitest';
import { read, useMock } from './helpers.js';

const h = useMock();

describe('deviation 4: every answer carries a real request id', () => {
  it.each([
    ['a malformed percent-escape', '/pos/v1/orders/%E0%A4%A', 400, 'invalid_request'],
    ['an unknown API root', '/nope/v1/things', 404, 'not_found'],
    ['an unknown path under a known root', '/pos/v1/nothing-here', 404, 'not_found'],
  ])('%s: X-Request-Id and the body name the same req_ id', async (_why, path, status, code) => {
    const answer = await read(await fetch(`${h.server.baseUrl}${path}`));
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(code);
    expect(answer.body.request_id).toMatch(/^req_[0-9a-f]{16}$/);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });

  it('in process too: mock.fetch answers an unknown root with a request id', async () => {
    const answer = await read(await h.mock.fetch(new Request('https://api.payments.test/elsewhere')));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });
});
