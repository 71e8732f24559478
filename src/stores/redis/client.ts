// How the Redis stores reach Redis: the one place that tells node-redis from ioredis, and sends a
// command or a script. Every store of this folder talks through a `Send`, so another client (a
// Redis Cluster client, say) is adapted here and nowhere else.

/**
 * A Redis client the stores accept: ioredis 5+ (`call(command, ...args)`) or node-redis 4+
 * (`sendCommand([command, ...args])`), connected. Attach an `error` listener to it, so that an
 * outage does not crash your process while the SDK works on without the store.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const redis: RedisClientLike = new Redis(process.env.REDIS_URL);
 */
export type RedisClientLike =
  | {
      /** ioredis: sends one command with its arguments. */
      call(command: string, ...args: (string | number)[]): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command as an array of strings. */
      sendCommand(args: string[]): Promise<unknown>;
    };

/** Sends one command (its name, then its arguments) and resolves Redis's reply. */
export type Send = (args: (string | number)[]) => Promise<unknown>;

/** The `Send` of a client, whichever of the two it is. */
export function sender(client: RedisClientLike): Send {
  const c = client as unknown as Record<string, unknown>;
  if (typeof c.call === 'function') {
    const call = c.call as (...args: (string | number)[]) => Promise<unknown>;
    return (args) => call.apply(client, args);
  }
  if (typeof c.sendCommand === 'function') {
    const send = c.sendCommand as (args: string[]) => Promise<unknown>;
    return (args) => send.call(client, args.map(String));
  }
  throw new TypeError(
    'redisStores() needs a connected node-redis 4+ client (sendCommand) or an ioredis 5+ client (call).',
  );
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

/** Runs a script by its digest (the script text goes over the wire only when Redis lacks it). */
export function scriptRunner(send: Send, source: string) {
  const digest = sha1(source);
  return async (keys: string[], args: (string | number)[]): Promise<unknown> => {
    try {
      return await send(['EVALSHA', await digest, keys.length, ...keys, ...args]);
    } catch (error) {
      if (!String((error as Error)?.message ?? error).includes('NOSCRIPT')) throw error;
      return send(['EVAL', source, keys.length, ...keys, ...args]);
    }
  };
}
