// The mock's options: MockServiceOptions, the demo mode's AutoProcessOptions, and `resolveOptions()`,
// which fills in the defaults.
import type { MockClockOptions } from './clock.js';
import type { RateTier } from './state.js';

/**
 * Demo mode: the processor answers on its own, on the mock clock, which then follows real time
 * unless `clock: { realTime: false }` is given (a test with that manual clock moves outcomes on
 * with `mock.clock.advance()`).
 *
 * @example
 * const mock = createMockService({ autoProcess: { approveAfterMs: 200, declineAmountsEndingIn: [13, 99] } });
 */
export interface AutoProcessOptions {
  /** Pending payments are approved (or declined) this long after creation. @default 1500 */
  approveAfterMs?: number;
  /** Payments whose amount in cents ends in one of these two-digit endings are declined. @default [13] */
  declineAmountsEndingIn?: number[];
  /** Approved payments settle this long after approval. @default 5000 */
  settleAfterMs?: number;
  /** Pending refunds are confirmed this long after creation. @default 2000 */
  refundAfterMs?: number;
}

/**
 * Options of {@link createMockService}.
 *
 * @example
 * const mock = createMockService({ tokenTtlSeconds: 60, rateLimits: false });
 */
export interface MockServiceOptions {
  /** Seed two partners, their clients and locations. @default true */
  seed?: boolean;
  /** Lifetime of minted access tokens, in seconds. @default 3600 */
  tokenTtlSeconds?: number;
  /** Where the mock clock starts and whether it follows real time. @default `{ realTime: false }`, `{ realTime: true }` with `autoProcess` */
  clock?: MockClockOptions;
  /** A pending payment expires after this long on the mock clock. @default 900_000 (15 minutes) */
  paymentTtlMs?: number;
  /** Refunds are refused with `refund_window_expired` this long after settlement. @default 180 days */
  refundWindowMs?: number;
  /**
   * Demo mode; `true` takes every default of {@link AutoProcessOptions}. Its clock follows real time
   * unless `clock.realTime` is `false`.
   * @default false
   */
  autoProcess?: boolean | AutoProcessOptions;
  /**
   * A webhook delivery attempt fails when the receiver takes longer: real milliseconds, since it
   * bounds real network I/O to your receiver (the retry schedule runs on the mock clock).
   * @default 30_000
   */
  webhookTimeoutMs?: number;
  /** Enforce per-client rate limits (spec section 8). @default true */
  rateLimits?: boolean;
  /** Serve the well-known OpenAPI/AsyncAPI documents; off, they answer 404 `spec_not_available`. @default true */
  specs?: boolean;
  /**
   * The rate tier of `mock.credentials` (partner A's all-scopes client). `high` (burst 200, 100/s)
   * keeps SDK tests with ~100 parallel calls unthrottled; `rateLimits: false` lifts limits for all.
   * @default 'high'
   */
  credentialsTier?: RateTier;
  /**
   * The most orders the mock keeps. Past it the oldest order goes, with its payments, refunds,
   * webhook deliveries and Idempotency-Key entry, so a long load test keeps bounded memory (the
   * event log keeps the latest 10,000 events).
   * @default 100_000
   */
  maxOrders?: number;
}

export interface ResolvedOptions {
  seed: boolean;
  tokenTtlSeconds: number;
  paymentTtlMs: number;
  refundWindowMs: number;
  autoProcess: Required<AutoProcessOptions> | null;
  webhookTimeoutMs: number;
  rateLimits: boolean;
  specs: boolean;
  credentialsTier: RateTier;
  maxOrders: number;
}

export function resolveOptions(options: MockServiceOptions): ResolvedOptions {
  const auto = options.autoProcess;
  return {
    seed: options.seed ?? true,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    paymentTtlMs: options.paymentTtlMs ?? 15 * 60_000,
    refundWindowMs: options.refundWindowMs ?? 180 * 24 * 3_600_000,
    autoProcess: auto
      ? {
          approveAfterMs: 1500,
          declineAmountsEndingIn: [13],
          settleAfterMs: 5000,
          refundAfterMs: 2000,
          ...(auto === true ? {} : auto),
        }
      : null,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 30_000,
    rateLimits: options.rateLimits ?? true,
    specs: options.specs ?? true,
    credentialsTier: options.credentialsTier ?? 'high',
    maxOrders: checkedMaxOrders(options.maxOrders),
  };
}

function checkedMaxOrders(value: number | undefined): number {
  if (value === undefined) return 100_000;
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`maxOrders must be a whole number >= 1, got ${value}`);
  }
  return value;
}
