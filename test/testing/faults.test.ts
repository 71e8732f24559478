import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService, FaultSpecError } from '../../src/testing/index.js';
import { useMock } from './helpers.js';

const h = useMock();

describe('failNext: network errors and delays', () => {
  it('on loopback, network: true drops the connection (fetch rejects) once, then the path answers again', async () => {
    const token = await h.token();
    h.mock.failNext({ path: '/pos/v1/locations', network: true });
    await expect(h.call('GET', '/pos/v1/locations', { token })).rejects.toThrow(TypeError);
    expect((await h.call('GET', '/pos/v1/locations', { token })).status).toBe(200);
  });

  it('delayMs waits on the mock clock: the answer comes once the clock passes it, the error too', async () => {
    const token = await h.token();
    h.mock.failNext({ path: '/pos/v1/locations', delayMs: 60_000 });
    let answered = false;
    const pending = h.call('GET', '/pos/v1/locations', { token }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    h.mock.clock.advance(59_999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    h.mock.clock.advance(1);
    expect((await pending).status).toBe(200);
    h.mock.failNext({ path: '/pos/v1/locations', delayMs: 10, status: 504 });
    const failed = h.call('GET', '/pos/v1/locations', { token });
    await new Promise((resolve) => setTimeout(resolve, 50));
    h.mock.clock.advance(10);
    expect((await failed).body.error).toBe('gateway_timeout');
  });

  it('an abort from the caller ends a delayed request at once', async () => {
    const token = await h.token();
    h.mock.failNext({ path: '/pos/v1/locations', delayMs: 1_000 });
    const controller = new AbortController();
    const pending = fetch(`${h.server.baseUrl}/pos/v1/locations`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('refuses a fault that does nothing or a non-error status', () => {
    expect(() => h.mock.failNext({ path: '/x' })).toThrow(FaultSpecError);
    expect(() => h.mock.failNext({ status: 200 })).toThrow(FaultSpecError);
  });
});

describe('failNext in-process (msw)', () => {
  const mock = createMockService();
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('network: true makes the global fetch reject like a failed connection', async () => {
    mock.failNext({ path: '/oauth2/token', network: true });
    await expect(
      fetch('https://auth.payments.test/oauth2/token', {
        method: 'POST',
        body: 'grant_type=client_credentials',
      }),
    ).rejects.toThrow(TypeError);
  });
});
