// The commands a fleet test sends to its worker processes, and their replies.
import type { PaymentsClientOptions, RateLimitOptions } from '../../src/index.js';

export type StoreKind = 'redis' | 'postgres' | 'memory' | 'none';

interface StoreTarget {
  redisUrl?: string;
  pgUrl?: string;
  flavour?: 'node-redis' | 'ioredis';
}

export type Command =
  | ({
      op: 'client';
      name: string;
      store: StoreKind;
      options: PaymentsClientOptions;
      rateLimit?: Omit<RateLimitOptions, 'store'>;
    } & StoreTarget)
  | { op: 'get'; name: string; orderId: string; n: number }
  | ({
      op: 'dedupe';
      store: StoreKind;
      secret: string;
      deliveries: { body: string; signature: string }[];
    } & StoreTarget)
  | { op: 'processOnce'; pgUrl: string; eventId: string; fail?: 'throw' | 'crash' }
  | { op: 'close' };

export interface Reply {
  ok: boolean;
  error?: string;
  succeeded?: number;
  failures?: string[];
  minted?: number;
  warnings?: string[];
  handled?: string[];
  outcome?: unknown;
}
