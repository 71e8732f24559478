// The bin's bridge to the SDK: a PaymentsClient for a target environment, minting a token for one
// scope through the client (one token request, nothing else sent), and one-line descriptions of the
// errors the SDK throws. Only the package's public entry is imported.
import { z } from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  InvalidResponseError,
  PaymentsClient,
  type PaymentsClientOptions,
} from '../../index.js';

/** Where and as whom the bin talks to the service (checked strings). */
export interface Target {
  clientId: string;
  clientSecret: string;
  baseUrl: string;
  authUrl: string;
  timeoutMs: number;
  /** A `fetch` for the client (verify's recorder); the SDK's default transport otherwise. */
  fetch?: typeof globalThis.fetch | undefined;
}

/** Anything: the bin reads answers itself, so the client's own parsing must not refuse one. */
export const ANY = z.unknown();

/** A client for `target`, without retries unless asked: the bin reports what the service answered. */
export function makeClient(target: Target, options: PaymentsClientOptions = {}): PaymentsClient {
  return new PaymentsClient({
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    baseUrl: target.baseUrl,
    authUrl: target.authUrl,
    timeoutMs: target.timeoutMs,
    maxRetries: 0,
    // What the service answered, not what reconciliation made of it (a payment whose answer is
    // unreadable is a deviation to report, not a payment to adopt).
    reconcile: 'off',
    ...(target.fetch ? { fetch: target.fetch } : {}),
    ...options,
  });
}

/** What one token request for one scope gave. */
export type MintResult =
  | { granted: true; scope: string; ms: number; client: PaymentsClient }
  | { granted: false; scope: string; ms: number; error: unknown };

/**
 * Mints a token for exactly `scope` through the SDK's client: a call is started and stopped as soon
 * as the client reports its token (`token` event), so the token request is the only thing sent.
 * The client is returned with its token cached, ready for calls needing that scope.
 */
export async function mintScope(target: Target, scope: string): Promise<MintResult> {
  const client = makeClient(target, { scopes: [scope] });
  const stop = new AbortController();
  let minted = false;
  client.on('token', (event) => {
    if (event.action !== 'minted') return;
    minted = true;
    stop.abort();
  });
  const started = Date.now();
  try {
    // Should the call ever go out before the abort, it is a read of one location: harmless.
    await client.request({
      method: 'GET',
      path: '/pos/v1/locations',
      query: { limit: 1 },
      retry: 'safe',
      response: ANY,
      options: { signal: stop.signal },
    });
  } catch (error) {
    if (!minted) return { granted: false, scope, ms: Date.now() - started, error };
  }
  return { granted: true, scope, ms: Date.now() - started, client };
}

/** The error code of a failed connection (ECONNREFUSED, ENOTFOUND, a TLS code), from the cause chain. */
export function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a connection failure code means, in words. */
const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'nothing listens on that port (connection refused)',
  ENOTFOUND: 'the host name does not resolve (DNS)',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
  EPROTO: 'the TLS handshake failed (an http:// server on an https:// URL?)',
};

/** One line about a failed call, for a verdict: status and code, or what went wrong on the wire. */
export function describeError(error: unknown): string {
  if (error instanceof APIError) {
    return `answered ${error.status}${error.code ? ` ${error.code}` : ' without an error code'}`;
  }
  if (error instanceof APIConnectionTimeoutError) return 'gave no answer in time';
  if (error instanceof APIConnectionError) {
    const code = causeCode(error);
    return code ? `could not be reached: ${CONNECTION_CODES[code] ?? code}` : 'could not be reached';
  }
  if (error instanceof InvalidResponseError)
    return `answered ${error.status} but not with the JSON it documents`;
  return error instanceof Error ? error.message : String(error);
}
