// The token and de-duplication stores on a Redis Cluster of three masters with a replica each
// (issue 42), across processes that alternate node-redis's and ioredis's cluster clients: the proofs
// of redis-tokens.test.ts (one mint for the fleet, one re-mint per process at most after the token
// dies) and of its de-duplication (each event handled once by 4 receivers). Their controls, which
// need no store, run in redis-tokens.test.ts.
import { describe } from 'vitest';
import { startClusterEngine } from './cluster.js';
import { dedupeProofs, tokenProofs } from './redis-proofs.js';
import { useFleet } from './suite.js';

const suite = useFleet(4, startClusterEngine, { rateLimits: false });

describe('a shared token on a Redis Cluster, across 4 processes', () => {
  tokenProofs(suite);
});

describe('webhook de-duplication on a Redis Cluster, across 4 receivers', () => {
  dedupeProofs(suite);
});
