// The floor of the intents figures: the least a client must do to remember its idempotency keys in
// memory around a create call, without the SDK's intent layer.

/**
 * `create` wrapped in a bare `Map` of at most `cap` keys, like the default intent store's cap: a new
 * key set before the call and again with its result, the oldest tenth dropped at the cap.
 */
export function keyMemoryFloor<T>(create: () => Promise<T>, cap = 10_000): () => Promise<T> {
  const remembered = new Map<string, { result?: T; at: number }>();
  return async () => {
    const key = crypto.randomUUID();
    if (remembered.size >= cap) {
      let drop = Math.ceil(cap / 10);
      for (const old of remembered.keys()) {
        if (drop-- <= 0) break;
        remembered.delete(old);
      }
    }
    remembered.set(key, { at: Date.now() });
    const result = await create();
    remembered.set(key, { result, at: Date.now() });
    return result;
  };
}
