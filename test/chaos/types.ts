import type { CheckoutFigures } from './checkout.js';

/** The faults the chaos proxy plays (one per request at most) and what its two processes say. */
export const FAULTS = [
  'refused',
  'reset_before',
  'reset_after',
  'half_then_reset',
  'drip',
  'early_hints',
  'html_502',
  'html_504',
  'status_503',
  'status_429',
  'truncated_json',
  'slow_request',
] as const;
export type Fault = (typeof FAULTS)[number] | 'none';

export const KINDS = [
  'orders.create',
  'orders.create.checkout',
  'payments.create',
  'refunds.create',
  'payments.void',
  'orders.get',
  'payments.get',
  'locations.list',
  /** A checkout: `client.charge` (an order and its payment under one key), rerun until it succeeds. */
  'charge',
] as const;
export type Kind = (typeof KINDS)[number];

/** The mock resources one call acts on, created beforehand by the server process. */
export interface Fixture {
  orderId: string;
  paymentId: string;
  /** A keyed payment's amount: the keys sharing an order each charge their own. */
  amountCents?: number | undefined;
  /** The payment on a keyed payment's order that no key created (never to be adopted). */
  decoyId?: string | undefined;
}

/** How the server process starts (argv[2], as JSON). */
export interface ServerOptions {
  seed: number;
  faultRate: number;
  /** Every attempt's timeout: a request the client gives up on must not be held open longer. */
  timeoutMs: number;
  /** What the hold may overrun it by, on top of the event loop's stalls at the time. */
  marginMs: number;
  /**
   * A deliberate defect, for the self-test that the checks can fail: every order creation reaches
   * the mock twice, the second time under another key, as if the key had been ignored.
   */
  duplicateOrders?: boolean | undefined;
  /** Only these faults are played (the self-tests'). @default every fault of {@link FAULTS} */
  faults?: (typeof FAULTS)[number][] | undefined;
}

/** What the proxy saw, as counters: nothing per request is kept beyond the first few breaches. */
export interface ProxyFigures {
  requests: number;
  forwarded: number;
  faulted: number;
  faults: Record<string, number>;
  /** Requests the client closed before their answer was complete (timeouts, mostly). */
  abandoned: number;
  /** The longest an abandoned request was held open by the client, from its last byte in. */
  heldMaxMs: number;
  /** Held beyond the timeout plus the margin, but not beyond the proxy's own stalls at the time. */
  heldOverExplained: number;
  /** Held beyond the timeout plus the margin plus the stalls (a breach), and the first of them. */
  heldOver: number;
  heldOverExamples: string[];
}

/** The server's account of a run, from the mock's answers and state and the proxy's counters. */
export interface ServerSummary {
  proxy: ProxyFigures;
  /** Resources the mock created for the chaos calls (not the fixtures). */
  created: { orders: number; payments: number; refunds: number; voids: number };
  /** Every broken promise the server can see by itself or by joining the client's failures. */
  broken: string[];
  /** The keyed payments and refunds the clients returned, checked against the mock's records. */
  keyed: KeyedFigures;
  /** The checkouts: what the mock created per key, and whether each result was its key's. */
  checkouts: CheckoutFigures;
  /** Every secret the mock minted or holds, with a name for it (the client secret, tokens, URLs). */
  secrets: [string, string][];
  /** The longest the server's event loop was blocked during the run. */
  loopDelayMaxMs: number;
  /** Heap of the server process (the mock's state grows with every order: not the SDK's). */
  heapUsedMB: number;
}

/** What the server found of the keyed payments and refunds (warm-up included). */
export interface KeyedFigures {
  /** Results the clients returned and the server matched to the call that created them. */
  results: number;
  /** Of which adopted by reconciliation (the answer was lost). */
  adopted: number;
  /** Results another call, or no call, created (must be 0). */
  wrong: number;
  /** The most payments, and refunds, one key has in the mock's state. */
  maxPaymentsPerKey: number;
  maxRefundsPerKey: number;
}

/** Client -> server. */
export type ToServer =
  | { t: 'prepare'; id: number; callId: string; kind: Kind }
  | {
      t: 'failure';
      callId: string;
      kind: Kind;
      outcomeUnknown: boolean;
      idempotencyKey: string | undefined;
    }
  | { t: 'created'; callId: string; kind: Kind; id: string; adopted: boolean }
  | { t: 'collect'; id: number; reset: boolean }
  | { t: 'sync'; id: number };

/** Server -> client. */
export type ToClient =
  | {
      t: 'ready';
      proxyUrl: string;
      clientId: string;
      clientSecret: string;
      locationId: string;
    }
  | { t: 'fixture'; id: number; fixture: Fixture | undefined; error?: string }
  | { t: 'summary'; id: number; summary: ServerSummary }
  | { t: 'synced'; id: number };
