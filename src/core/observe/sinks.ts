// Where a client's events go: its listeners and its parent's (`listenerSink`), and, for the calls it
// makes itself, its meter and its log (`clientSink`). A derived client emits to its parent's
// listeners, never to its parent's meter: each call is recorded once.
import type { EventSink, TokenEvent } from './events.js';
import type { LogFn } from './logger.js';
import { ClientMetrics, type PaymentsMeter } from './metrics.js';
import { traceTarget } from './tracing.js';

/** What a client is as an event emitter. */
interface Emitter {
  listenerCount(name: string): number;
  emit(name: string, payload: unknown): boolean;
}

/** The emitter's listeners, then its parent's (a derived client's calls reach both). */
export function listenerSink(emitter: Emitter, parent: EventSink | undefined): EventSink {
  return {
    wants: (name) => emitter.listenerCount(name) > 0 || parent?.wants(name) === true,
    emit: (name, payload) => {
      emitter.emit(name, payload);
      parent?.emit(name, payload);
    },
  };
}

/** The events of the client's own calls: its meter (when set), its listeners, the token log line. */
export function clientSink(
  listeners: EventSink,
  meter: PaymentsMeter | undefined,
  baseUrl: string,
  log: LogFn | undefined,
): EventSink {
  const metrics = meter && new ClientMetrics(meter, traceTarget(baseUrl));
  return {
    wants: metrics ? (name) => ClientMetrics.EVENTS.has(name) || listeners.wants(name) : listeners.wants,
    emit: (name, payload) => {
      metrics?.record(name, payload as unknown as Record<string, unknown>);
      listeners.emit(name, payload);
      if (name === 'token' && log) log('info', `access token ${(payload as TokenEvent).action}`);
    },
  };
}
