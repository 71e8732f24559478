// How the Redis stores reach Redis: the one place that tells node-redis from ioredis, a single
// server from a Redis Cluster, and sends a command or a script. Every store of this folder talks
// through a `RedisLink`, so a client is adapted here and nowhere else.

/**
 * A Redis client the stores accept, connected: ioredis 5+ (`new Redis(...)` or `new Cluster(...)`:
 * `call(command, ...args)`), node-redis 4+ (`createClient()`: `sendCommand([command, ...args])`) or a
 * node-redis 5 cluster (`createCluster()`: `sendCommand(firstKey, isReadonly, args)`). Attach an
 * `error` listener to it, so that an outage does not crash your process while the SDK works on
 * without the store.
 *
 * @example
 * import { Cluster, Redis } from 'ioredis';
 * const redis: RedisClientLike = new Redis(process.env.REDIS_URL);
 * const cluster: RedisClientLike = new Cluster([{ host: 'redis-0.internal', port: 6379 }]);
 */
export type RedisClientLike =
  | {
      /** ioredis (a server or a Cluster): sends one command with its arguments. */
      call(command: string, ...args: (string | number)[]): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command as an array of strings. */
      sendCommand(args: string[]): Promise<unknown>;
    }
  | {
      /** node-redis cluster: sends one command to the node that holds `firstKey`. */
      sendCommand(
        firstKey: string | undefined,
        isReadonly: boolean | undefined,
        args: string[],
      ): Promise<unknown>;
      /** What tells a node-redis cluster from a single client. */
      nodeClient(node: never): Promise<unknown>;
    };

/** Sends one command (its name, then its arguments) and resolves Redis's reply. */
export type Send = (args: (string | number)[]) => Promise<unknown>;

/** A connection to Redis as the stores use it. */
export interface RedisLink {
  /** One command, sent (on a cluster) to the node that holds its first key. */
  send: Send;
  /**
   * Commands sent back to back on the connection to the node that holds `key` (the node that runs
   * the first of them): each one's reply, or its error as an `Error`. A `WAIT` among them counts the
   * writes of that very connection, which is why they travel together.
   */
  together(key: string, commands: (string | number)[][]): Promise<unknown[]>;
  /** A Redis Cluster: a script's keys must share one hash slot. */
  cluster: boolean;
}

/** The first key of a command the stores send: a script's first key, else its first argument. */
function firstKey(args: (string | number)[]): string | undefined {
  const name = String(args[0]).toUpperCase();
  if (name === 'EVAL' || name === 'EVALSHA') return Number(args[2]) > 0 ? String(args[3]) : undefined;
  return args.length > 1 ? String(args[1]) : undefined;
}

const asError = (reply: unknown) =>
  reply instanceof Error ? reply : new Error(String((reply as { message?: unknown })?.message ?? reply));

/** A MOVED or ASK answer: the cluster's slots moved (a failover, a resharding) since the client looked. */
const redirected = (reply: unknown) => reply instanceof Error && /^(MOVED|ASK) /.test(reply.message);

/**
 * Commands sent together (`batch`), sent again once when their first one met a MOVED or ASK answer:
 * a pipeline does not follow one, a single routed command does, and in doing so the client learns
 * the new slots. That command is `EXISTS key` (on a cluster client a command goes to the master of
 * its key's slot whatever it is): it must read, never write. The batch that follows reads the key as
 * the slot's master holds it, and a write here, even `PEXPIRE key 1`, would drop the intent or key
 * pointer it meant to find: a failover's rerun would then begin the key afresh and pay it twice.
 * The first command did not run when it was redirected, so sending the batch again repeats nothing.
 */
async function followingRedirect(
  key: string,
  batch: () => Promise<unknown[]>,
  send: Send,
): Promise<unknown[]> {
  const replies = await batch();
  if (!redirected(replies[0])) return replies;
  await send(['EXISTS', key]).catch(() => undefined); // a failure shows in the batch's own replies
  return batch();
}

/** The link of a client, whichever of the four it is. */
export function linkOf(client: RedisClientLike): RedisLink {
  const c = client as unknown as Record<string, unknown>;
  if (typeof c.call === 'function') {
    const call = c.call as (...args: (string | number)[]) => Promise<unknown>;
    const pipeline = c.pipeline as
      | (() => { call(...args: (string | number)[]): unknown; exec(): Promise<[Error | null, unknown][]> })
      | undefined;
    return {
      send: (args) => call.apply(client, args),
      // ioredis sends a pipeline to the node of its commands' keys (a cluster checks they share a slot).
      async together(key, commands) {
        if (typeof pipeline !== 'function') return sequential((args) => call.apply(client, args), commands);
        const once = async () => {
          const p = pipeline.call(client);
          for (const args of commands) p.call(...args);
          return (await p.exec()).map(([error, reply]) => error ?? reply);
        };
        return followingRedirect(key, once, (args) => call.apply(client, args));
      },
      cluster: c.isCluster === true,
    };
  }
  if (typeof c.sendCommand === 'function' && typeof c.nodeClient === 'function') {
    return nodeRedisCluster(client, c);
  }
  if (typeof c.sendCommand === 'function') {
    const send = c.sendCommand as (args: string[]) => Promise<unknown>;
    const one: Send = (args) => send.call(client, args.map(String));
    // One client is one connection: commands sent in a row reach Redis in that order.
    return { send: one, together: (_key, commands) => sequential(one, commands), cluster: false };
  }
  throw new TypeError(
    'redisStores() needs a connected node-redis 4+ client or cluster (sendCommand) or an ioredis 5+ client or Cluster (call).',
  );
}

/** Sends the commands in a row without waiting between them; each reply or error. */
function sequential(send: Send, commands: (string | number)[][]): Promise<unknown[]> {
  return Promise.all(commands.map((args) => send(args).catch(asError)));
}

interface NodeRedisMulti {
  addCommand(firstKey: string, isReadonly: boolean, args: string[]): NodeRedisMulti;
  execAsPipeline(): Promise<unknown[]>;
}

/** node-redis's cluster: commands by their first key; a pipeline by a routing key (`multi(key)`). */
function nodeRedisCluster(client: RedisClientLike, c: Record<string, unknown>): RedisLink {
  const sendCommand = c.sendCommand as (
    key: string | undefined,
    ro: boolean,
    args: string[],
  ) => Promise<unknown>;
  const multi = c.multi as (routing: string) => NodeRedisMulti;
  const send: Send = (args) => sendCommand.call(client, firstKey(args), false, args.map(String));
  const pipeline = async (key: string, commands: (string | number)[][]) => {
    let batch = multi.call(client, key);
    for (const args of commands) batch = batch.addCommand(key, false, args.map(String));
    try {
      return await batch.execAsPipeline();
    } catch (error) {
      const replies = (error as { replies?: unknown[] }).replies;
      // node-redis 5 rejects a pipeline with its first error reply: every reply stands for it then
      // (a failed script's WAIT proves nothing).
      if (!Array.isArray(replies)) return commands.map(() => asError(error));
      return replies.map((r) =>
        r instanceof Error || r?.constructor?.name?.endsWith('ErrorReply') ? asError(r) : r,
      );
    }
  };
  return {
    send,
    together: (key, commands) => followingRedirect(key, () => pipeline(key, commands), send),
    cluster: true,
  };
}

/** Runs a script on one key, its text sent each time (`EVAL`). */
export function evalScript(send: Send, source: string, key: string, ...args: (string | number)[]) {
  return send(['EVAL', source, 1, key, ...args]);
}

/** SHA-1 of a script, hex, as EVALSHA names it (Web Crypto: the stores entry loads no node: module). */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const noScript = (error: unknown) => String((error as Error)?.message ?? error).includes('NOSCRIPT');

/** A script run by its digest (the script text goes over the wire only when Redis lacks it). */
export interface ScriptRunner {
  (keys: string[], args: (string | number)[]): Promise<unknown>;
  /**
   * The script, then `after` on the same connection (`WAIT`, say): the script's reply and the
   * replies (or errors) of `after`, in one round trip.
   */
  followedBy(keys: string[], args: (string | number)[], after: (string | number)[][]): Promise<unknown[]>;
}

/** A {@link ScriptRunner} for `source` over `link`. */
export function scriptRunner(link: RedisLink, source: string): ScriptRunner {
  const digest = sha1(source);
  let sha: string | undefined;
  void digest.then((d) => {
    sha = d;
  });
  const evalAgain = (keys: string[], args: (string | number)[]) => (error: unknown) => {
    if (!noScript(error)) throw error;
    return link.send(['EVAL', source, keys.length, ...keys, ...args]);
  };
  // No async frame of its own (a keyed call runs two scripts); a client that throws rejects.
  const run = (keys: string[], args: (string | number)[]): Promise<unknown> => {
    const evalsha = (d: string) => link.send(['EVALSHA', d, keys.length, ...keys, ...args]);
    let sent: Promise<unknown>;
    try {
      sent = sha !== undefined ? evalsha(sha) : digest.then(evalsha);
    } catch (error) {
      sent = Promise.reject(error);
    }
    return sent.catch(evalAgain(keys, args));
  };
  const withAfter = async (keys: string[], args: (string | number)[], after: (string | number)[][]) => {
    const key = keys[0] as string;
    const head = ['EVALSHA', sha ?? (await digest), keys.length, ...keys, ...args];
    let replies = await link.together(key, [head, ...after]);
    if (noScript(replies[0]))
      replies = await link.together(key, [['EVAL', source, keys.length, ...keys, ...args], ...after]);
    if (replies[0] instanceof Error) throw replies[0];
    return replies;
  };
  return Object.assign(run, { followedBy: withAfter });
}
