// The rate-limit store on a Redis Cluster of three masters with a replica each (issue 42): 3
// processes on the `low` tier, on node-redis's and ioredis's cluster clients, share one bucket and
// draw no 429 (the proof of redis-rate-limit.test.ts, whose control needs no store and runs there).
import { describe } from 'vitest';
import { startClusterEngine } from './cluster.js';
import { rateLimitProofs } from './redis-proofs.js';
import { useFleet } from './suite.js';

// A real-time mock clock: the mock's buckets refill as the SDK's do.
const suite = useFleet(3, startClusterEngine, { clock: { realTime: true } });

describe('a shared rate limit on a Redis Cluster, across 3 processes on the low tier (10 at once, then 5/s)', () => {
  rateLimitProofs(suite);
});
