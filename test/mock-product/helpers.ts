import { type MockHarness, read } from '../testing/helpers.js';

/** Calls the control API over raw HTTP, as a test in any language would. */
export async function control(harness: MockHarness, method: string, path: string, body?: unknown) {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  return read(await fetch(`${harness.server.baseUrl}/_mock/v1${path}`, init));
}
