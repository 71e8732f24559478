import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors/api-errors.js';
import { defaultTransport } from '../../src/core/transport/default-transport.js';
import { isNode, processEnv, runtimeName, userAgent } from '../../src/core/transport/runtime.js';
import { VERSION } from '../../src/version.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the runtime', () => {
  it('is Node.js here: undici is the default transport, the User-Agent names Node', () => {
    expect(isNode()).toBe(true);
    expect(userAgent()).toBe(`partner-payments/${VERSION} node/${process.versions.node}`);
    expect(defaultTransport({}).name).toBe('undici');
  });

  it.each([
    ['Deno', { version: { deno: '2.1.4' } }, 'deno/2.1.4'],
    ['EdgeRuntime', 'edge-runtime', 'edge-light'],
    ['navigator', { userAgent: 'Cloudflare-Workers' }, 'workerd'],
  ])(
    'is told apart from Node.js when %s is there (its Node.js emulation is not Node.js)',
    (name, value, expected) => {
      vi.stubGlobal(name, value);
      expect(runtimeName()).toBe(expected);
      expect(isNode()).toBe(false);
      expect(userAgent()).toBe(`partner-payments/${VERSION} ${expected}`);
      expect(defaultTransport({}).name).toBe('fetch');
    },
  );

  it('off Node.js, undici options are refused with the option named, not ignored', () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    expect(() => defaultTransport({ proxy: 'http://127.0.0.1:3128' })).toThrow(ConfigurationError);
    expect(() => defaultTransport({ dispatcher: {} })).toThrow(/dispatcher/);
    // The caller's fetch is used as it is.
    expect(defaultTransport({ fetch: globalThis.fetch }).name).toBe('fetch');
  });

  it('reads no environment where there is no process (Workers without nodejs_compat, Vercel Edge)', () => {
    vi.stubGlobal('process', undefined);
    expect(processEnv()).toEqual({});
    expect(runtimeName()).toBe('unknown');
  });
});
