// A real Redis Cluster on loopback for the fleet tests (issue 42): six redis-server processes with
// `cluster-enabled yes` (three masters, a replica each), joined by `redis-cli --cluster create`, each
// in a temp dir, with a small `cluster-node-timeout` so that a killed master's replica is promoted
// within a few seconds. Started by the tests that need it and removed after them.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { createCluster } from 'redis';
import type { RedisClientLike } from '../../src/stores/index.js';
import { type Engine, freePort, redisServerArgs, which } from './engines.js';

const run = promisify(execFile);

/** How long a node may be unreachable before the cluster fails it over (ms). */
const NODE_TIMEOUT_MS = 1_000;
/**
 * The nodes' password (replicas use it to sync): changing one replica's `masterauth` cuts it off from
 * its master for as long as a test wants ({@link RedisClusterEngine.cutOff}).
 */
const PASSWORD = 'pp-cluster-test';

export interface ClusterNode {
  port: number;
  child: ChildProcess;
  /** Its command line, to start it again in its own directory (its nodes.conf: the same node). */
  args: string[];
}

/** One line of `CLUSTER NODES`. */
export interface NodeLine {
  id: string;
  port: number;
  master: boolean;
  failed: boolean;
  /** The id of its master (replicas). */
  of: string;
  slots: [number, number][];
}

export interface RedisClusterEngine {
  /** Every node's port; the cluster clients take any of them as a seed. */
  ports: number[];
  /** `[{ url }]` for node-redis's `createCluster({ rootNodes })`. */
  rootNodes: { url: string }[];
  /** `[{ host, port }]` for ioredis's `new Cluster(...)`. */
  startupNodes: { host: string; port: number }[];
  /** `redis-cli -p port args...`, its output trimmed. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The nodes as a live node sees them. */
  nodes(): Promise<NodeLine[]>;
  /** The port of the master that serves `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** Kills one node with SIGKILL (a crash: nothing is flushed or handed over). */
  kill(port: number): Promise<void>;
  /**
   * Starts a killed node again, as the same node (its nodes.conf), with no data (no persistence):
   * a failed-over master comes back as a replica of the node that took its slots.
   */
  restart(port: number): Promise<void>;
  /**
   * Resolves once the node on `port` is a replica whose master counts it online (synced) and every
   * live node sees the cluster ok: a `WAIT 1` on that master can be met again.
   */
  rejoined(port: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `key`'s slot is served by a master other than `port` and the cluster is ok. */
  failedOver(key: string, port: number, timeoutMs?: number): Promise<number>;
  /**
   * Cuts the replica of the master on `port` off (a wrong `masterauth`, its link dropped): writes on
   * that master now reach no replica, as in the moment after any asynchronous write.
   */
  cutOff(port: number): Promise<void>;
  /** Lets the replica cut off by {@link cutOff} connect again (it does within about a second). */
  heal(port: number): Promise<void>;
  /** How many clients of the node on `port` are blocked in a `WAIT`. */
  waiting(port: number): Promise<number>;
  /** A read command run on the replica of the master on `port` (`READONLY` first), its reply. */
  onReplica(port: number, ...args: string[]): Promise<unknown>;
  /** Empties every master (tests that share the cluster start from nothing). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (!alive(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function parseNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [id, address, flags, of, , , , , ...slots] = line.trim().split(' ');
      const port = Number(address!.split('@')[0]!.split(':')[1]);
      const ranges = slots
        .filter((s) => !s.startsWith('['))
        .map((s) => {
          const [a, b] = s.split('-').map(Number);
          return [a!, b ?? a!] as [number, number];
        });
      return {
        id: id!,
        port,
        master: flags!.includes('master'),
        failed: flags!.includes('fail') && !flags!.includes('fail?') ? true : flags!.includes('fail?'),
        of: of!,
        slots: ranges,
      };
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether nothing listens on `port` of 127.0.0.1 (the moment it is asked). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Starts six nodes and makes them a cluster of three masters with a replica each. */
export async function startRedisCluster(): Promise<RedisClusterEngine> {
  const server = which('redis-server') ?? 'redis-server';
  const cliBin = which('redis-cli') ?? 'redis-cli';
  const dirs: string[] = [];
  const nodes: ClusterNode[] = [];
  const cli = async (port: number, ...args: string[]) =>
    (
      await run(
        cliBin,
        ['-h', '127.0.0.1', '-p', String(port), '-a', PASSWORD, '--no-auth-warning', ...args],
        {
          timeout: 10_000,
        },
      )
    ).stdout.trim();
  const stopAll = async () => {
    await Promise.all(nodes.map((n) => stopChild(n.child, 'SIGKILL')));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    /**
     * One node on a free port whose cluster bus port (the port + 10000) is free too and exists: a
     * port of the ephemeral range above 55535 has none, and one whose bus port another process holds
     * makes redis-server exit at once. A node that exits while starting is started again elsewhere.
     */
    const spawnNode = async (dir: string): Promise<ClusterNode> => {
      let port = await freePort();
      while (port > 55_535 || !(await portFree(port + 10_000))) port = await freePort();
      const args = [
        ...redisServerArgs(port, dir),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, 'nodes.conf'),
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--requirepass',
        PASSWORD,
        '--masterauth',
        PASSWORD,
      ];
      return { port, child: spawn(server, args, { stdio: 'ignore' }), args };
    };
    for (let i = 0; i < 6; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'pp-redis-cluster-'));
      dirs.push(dir);
      nodes.push(await spawnNode(dir));
    }
    for (const [i, n] of nodes.entries()) {
      for (let tries = 0, starts = 1; ; tries++) {
        if (!alive(n.child)) {
          if (starts++ >= 5) throw new Error(`redis-server on ${n.port} exited (${n.child.exitCode})`);
          Object.assign(n, await spawnNode(dirs[i]!));
          tries = 0;
          continue;
        }
        if ((await cli(n.port, 'PING').catch(() => '')) === 'PONG') break;
        if (tries > 200) throw new Error(`redis-server on ${n.port} did not start`);
        await sleep(25);
      }
    }
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
    const create = ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'];
    await run(cliBin, ['-a', PASSWORD, '--no-auth-warning', ...create], {
      timeout: 30_000,
    });
    // Ready: every node sees the cluster ok, and every master has its replica online (a WAIT for one
    // replica can be met).
    for (let tries = 0; ; tries++) {
      const states = await Promise.all(nodes.map((n) => cli(n.port, 'CLUSTER', 'INFO').catch(() => '')));
      const lines = parseNodes(await cli(nodes[0]!.port, 'CLUSTER', 'NODES'));
      const masters = lines.filter((l) => l.master);
      const replication = await Promise.all(masters.map((m) => cli(m.port, 'INFO', 'replication')));
      const ok = states.every((s) => s.includes('cluster_state:ok'));
      if (ok && masters.length === 3 && replication.every((r) => /slave0:.*state=online/.test(r))) break;
      if (tries > 400) throw new Error(`the cluster did not become ready: ${states.join(' | ')}`);
      await sleep(50);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  const live = () => nodes.filter((n) => alive(n.child));
  const nodesNow = async () => {
    for (const n of live()) {
      const text = await cli(n.port, 'CLUSTER', 'NODES').catch(() => undefined);
      if (text) return parseNodes(text);
    }
    throw new Error('no live cluster node');
  };
  const masterOf = async (key: string) => {
    const slot = Number(await cli(live()[0]!.port, 'CLUSTER', 'KEYSLOT', key));
    const owner = (await nodesNow()).find(
      (l) => l.master && !l.failed && l.slots.some(([a, b]) => slot >= a && slot <= b),
    );
    if (!owner) throw new Error(`no master serves slot ${slot}`);
    return owner.port;
  };
  return {
    ports: nodes.map((n) => n.port),
    rootNodes: nodes.map((n) => ({ url: `redis://127.0.0.1:${n.port}` })),
    startupNodes: nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
    cli,
    nodes: nodesNow,
    masterOf,
    async kill(port) {
      const node = nodes.find((n) => n.port === port);
      if (node) await stopChild(node.child, 'SIGKILL');
    },
    async restart(port) {
      const node = nodes.find((n) => n.port === port);
      if (!node || alive(node.child)) return;
      node.child = spawn(server, node.args, { stdio: 'ignore' });
      for (let tries = 0; (await cli(port, 'PING').catch(() => '')) !== 'PONG'; tries++) {
        if (!alive(node.child)) throw new Error(`redis-server on ${port} exited (${node.child.exitCode})`);
        if (tries > 200) throw new Error(`redis-server on ${port} did not start again`);
        await sleep(25);
      }
    },
    async rejoined(port, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      const online = new RegExp(`slave\\d+:ip=[^,]+,port=${port},state=online`);
      for (;;) {
        const lines = await nodesNow().catch(() => []);
        const master = lines.find((l) => l.id === lines.find((n) => n.port === port && !n.master)?.of);
        const info = master ? await cli(master.port, 'INFO', 'replication').catch(() => '') : '';
        const states = await Promise.all(live().map((n) => cli(n.port, 'CLUSTER', 'INFO').catch(() => '')));
        if (online.test(info) && states.every((s) => s.includes('cluster_state:ok'))) return;
        if (Date.now() > until) throw new Error(`the node on ${port} did not come back as a synced replica`);
        await sleep(100);
      }
    },
    async failedOver(key, port, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const now = await masterOf(key).catch(() => port);
        const states = await Promise.all(live().map((n) => cli(n.port, 'CLUSTER', 'INFO').catch(() => '')));
        if (now !== port && states.every((s) => s.includes('cluster_state:ok'))) return now;
        if (Date.now() > until) throw new Error(`no replica took over ${key}'s slot from ${port}`);
        await sleep(100);
      }
    },
    async cutOff(port) {
      const lines = await nodesNow();
      const master = lines.find((l) => l.port === port);
      const replica = lines.find((l) => l.of === master?.id);
      if (!replica) throw new Error(`no replica of ${port}`);
      await cli(replica.port, 'CONFIG', 'SET', 'masterauth', 'not-the-password');
      await cli(port, 'CLIENT', 'KILL', 'TYPE', 'replica');
    },
    async heal(port) {
      const lines = await nodesNow();
      const replica = lines.find((l) => l.of === lines.find((n) => n.port === port)?.id);
      if (!replica) throw new Error(`no replica of ${port}`);
      await cli(replica.port, 'CONFIG', 'SET', 'masterauth', PASSWORD);
    },
    async waiting(port) {
      const list = await cli(port, 'CLIENT', 'LIST');
      return list.split('\n').filter((l) => / cmd=wait( |$)/.test(l)).length;
    },
    async onReplica(port, ...args) {
      const lines = await nodesNow();
      const replica = lines.find((l) => l.of === lines.find((n) => n.port === port)?.id);
      if (!replica) throw new Error(`no replica of ${port}`);
      const redis = new Redis({
        host: '127.0.0.1',
        port: replica.port,
        password: PASSWORD,
        lazyConnect: true,
      });
      redis.on('error', () => {});
      try {
        await redis.connect();
        await redis.call('READONLY');
        return await redis.call(args[0]!, ...args.slice(1));
      } finally {
        redis.disconnect();
      }
    },
    async flush() {
      const masters = (await nodesNow()).filter((n) => n.master && !n.failed);
      await Promise.all(masters.map((m) => cli(m.port, 'FLUSHALL')));
    },
    stop: stopAll,
  };
}

/** The cluster as one URL for the fleet's commands (`redisUrl`): `redis-cluster://host:port,...`. */
export function clusterUrl(engine: Pick<RedisClusterEngine, 'ports'>): string {
  return `redis-cluster://${engine.ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
}

export const isClusterUrl = (url: string) => url.startsWith('redis-cluster://');

/**
 * A connected cluster client of either flavour on a `redis-cluster://` URL, set up as a partner
 * would (an error listener, bounded retries); `close` disconnects it.
 */
export async function connectCluster(
  url: string,
  flavour: 'node-redis' | 'ioredis',
): Promise<{ client: RedisClientLike; close(): Promise<void> }> {
  const nodes = url
    .slice('redis-cluster://'.length)
    .split(',')
    .map((hostPort) => {
      const [host, port] = hostPort.split(':');
      return { host: host!, port: Number(port) };
    });
  if (flavour === 'ioredis') {
    const cluster = new Cluster(nodes, {
      lazyConnect: true,
      redisOptions: { maxRetriesPerRequest: 1, password: PASSWORD },
    });
    cluster.on('error', () => {});
    await cluster.connect();
    return { client: cluster, close: async () => cluster.disconnect() };
  }
  const cluster = createCluster({
    rootNodes: nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })),
    // A node that died fails its commands at once instead of queueing them until it is back, which
    // it never is after a failover: node-redis learns new slots only from a MOVED answer
    // (redis/node-redis#2806), so a client built afresh reaches the promoted replica.
    defaults: { password: PASSWORD, disableOfflineQueue: true, socket: { reconnectStrategy: 100 } },
  });
  cluster.on('error', () => {});
  await cluster.connect();
  return { client: cluster as unknown as RedisClientLike, close: async () => cluster.destroy() };
}

/** The cluster as an `Engine` of the fleet suites (engines.ts): its `url` is {@link clusterUrl}. */
export async function startClusterEngine(): Promise<Engine & { cluster: RedisClusterEngine }> {
  const cluster = await startRedisCluster();
  return { url: clusterUrl(cluster), port: cluster.ports[0]!, stop: () => cluster.stop(), cluster };
}
