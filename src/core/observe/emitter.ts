// The base class of PaymentsClient: the instance API of eventemitter3, which it replaces, with the
// same behaviour. Listeners run in the order they were added, each with its context as `this` (the
// emitter when none was given); an emit runs the listeners registered when it began, whatever they
// add or remove meanwhile; a `once` listener is removed before it runs; `removeListener` removes
// every listener that matches; an `error` event with no listener is not thrown. Kept here because a
// Worker bundled the whole of eventemitter3 for the few methods a client's events need.

/** The events of an emitter: each event's name and the arguments its listeners receive. */
export type EventMap<Events> = { [K in keyof Events]: unknown[] };

interface Registration<Fn> {
  fn: Fn;
  context: unknown;
  once: boolean;
}

/** An event emitter typed by its event map, with eventemitter3's methods. */
export class Emitter<Events extends EventMap<Events>> {
  /**
   * The listeners of each event, in the order they were added. An event's array is replaced, never
   * changed, so that an emit in progress keeps the listeners it began with. A prototype-less object
   * rather than a Map: `eventNames()` lists the names in eventemitter3's order (Reflect.ownKeys).
   */
  #events: { [K in keyof Events]?: readonly Registration<(...args: Events[K]) => void>[] } =
    Object.create(null);

  /** The events that have listeners. */
  eventNames(): Array<keyof Events> {
    return Reflect.ownKeys(this.#events) as Array<keyof Events>;
  }

  /** The listeners of an event, in the order they run. */
  listeners<K extends keyof Events>(event: K): Array<(...args: Events[K]) => void> {
    return (this.#events[event] ?? []).map((r) => r.fn);
  }

  /** How many listeners an event has. */
  listenerCount(event: keyof Events): number {
    return this.#events[event]?.length ?? 0;
  }

  /** Calls each listener of an event with `args`; whether the event had any listener. */
  emit<K extends keyof Events>(event: K, ...args: Events[K]): boolean {
    const registrations = this.#events[event];
    if (!registrations) return false;
    for (const r of registrations) {
      if (r.once) this.removeListener(event, r.fn, undefined, true);
      r.fn.apply(r.context, args);
    }
    return true;
  }

  /** Adds a listener of an event; `context` is its `this` (the emitter when not given). */
  on<K extends keyof Events>(event: K, fn: (...args: Events[K]) => void, context?: unknown): this {
    return this.#add(event, fn, context, false);
  }

  /** The same as `on`. */
  addListener<K extends keyof Events>(event: K, fn: (...args: Events[K]) => void, context?: unknown): this {
    return this.#add(event, fn, context, false);
  }

  /** Adds a listener that is removed before the first time it runs. */
  once<K extends keyof Events>(event: K, fn: (...args: Events[K]) => void, context?: unknown): this {
    return this.#add(event, fn, context, true);
  }

  /**
   * Removes every listener of an event that is `fn` (every listener when `fn` is not given), only
   * those added with `context` when it is given, only those added with `once` when `once` is true.
   */
  removeListener<K extends keyof Events>(
    event: K,
    fn?: (...args: Events[K]) => void,
    context?: unknown,
    once?: boolean,
  ): this {
    const registrations = this.#events[event];
    if (!registrations) return this;
    const kept = fn
      ? registrations.filter((r) => r.fn !== fn || (once && !r.once) || (context && r.context !== context))
      : [];
    if (kept.length) this.#events[event] = kept;
    else delete this.#events[event];
    return this;
  }

  /** The same as `removeListener`. */
  off<K extends keyof Events>(
    event: K,
    fn?: (...args: Events[K]) => void,
    context?: unknown,
    once?: boolean,
  ): this {
    return this.removeListener(event, fn, context, once);
  }

  /** Removes the listeners of an event, or of every event when none is given. */
  removeAllListeners(event?: keyof Events): this {
    if (event) delete this.#events[event];
    else this.#events = Object.create(null);
    return this;
  }

  #add<K extends keyof Events>(
    event: K,
    fn: (...args: Events[K]) => void,
    context: unknown,
    once: boolean,
  ): this {
    if (typeof fn !== 'function') throw new TypeError('The listener must be a function');
    const registration: Registration<(...args: Events[K]) => void> = { fn, context: context || this, once };
    const registrations = this.#events[event];
    this.#events[event] = registrations ? [...registrations, registration] : [registration];
    return this;
  }
}
