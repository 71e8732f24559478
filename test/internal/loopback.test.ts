/**
 * The one loopback rule (src/internal/loopback.ts), read through URL hostnames as every caller
 * passes them: this machine's names pass, look-alikes of them do not.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/internal/loopback.js';
import { isSecureUrl } from '../../src/schemas/common.js';

const host = (url: string) => new URL(url).hostname;

describe('isLoopbackHost', () => {
  it.each([
    'http://localhost:4010/',
    'http://LOCALHOST/',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://127.255.255.254/',
    'http://0x7f.0.0.1/',
    'http://[::1]:8123/hooks',
  ])('%s is this machine', (url) => {
    expect(isLoopbackHost(host(url))).toBe(true);
  });

  it.each([
    'http://localhost./',
    'http://localhost.example.com/',
    'http://127.0.0.1.nip.io/',
    'http://128.0.0.1/',
    'http://10.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::2]/',
    'http://0.0.0.0/',
  ])('%s is not', (url) => {
    expect(isLoopbackHost(host(url))).toBe(false);
  });

  it('is the rule of isSecureUrl: http only on this machine, https anywhere', () => {
    expect(isSecureUrl('http://127.0.0.1:4010')).toBe(true);
    expect(isSecureUrl('http://payments.example.com')).toBe(false);
    expect(isSecureUrl('https://payments.example.com')).toBe(true);
  });
});
