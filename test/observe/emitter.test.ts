// The client's event emitter (src/core/observe/emitter.ts) behaves as eventemitter3, which it
// replaced: partners' listeners see the same order, `this`, `once` and removal semantics.

import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import { Emitter } from '../../src/core/observe/emitter.js';

interface Events {
  x: [number];
  y: [];
}

describe('Emitter', () => {
  it('runs listeners in the order they were added, with their context as `this` (the emitter by default)', () => {
    const e = new Emitter<Events>();
    const ctx = { name: 'ctx' };
    const seen: unknown[] = [];
    e.on('x', function (this: unknown, n) {
      seen.push(['a', this === e, n]);
    });
    e.on(
      'x',
      function (this: unknown, n) {
        seen.push(['b', this, n]);
      },
      ctx,
    );
    expect(e.emit('x', 1)).toBe(true);
    expect(e.emit('y')).toBe(false);
    expect(seen).toEqual([
      ['a', true, 1],
      ['b', ctx, 1],
    ]);
  });

  it('an emit runs the listeners it began with, whatever they add or remove', () => {
    const e = new Emitter<Events>();
    const seen: string[] = [];
    const c = () => seen.push('c');
    const d = () => seen.push('d');
    e.on('x', () => {
      seen.push('b');
      e.off('x', c);
      e.on('x', d);
    });
    e.on('x', c);
    e.emit('x', 1);
    expect(seen).toEqual(['b', 'c']);
    seen.length = 0;
    e.emit('x', 2);
    expect(seen).toEqual(['b', 'd']);
  });

  it('a `once` listener is removed before it runs', () => {
    const e = new Emitter<Events>();
    let runs = 0;
    e.once('x', () => {
      runs++;
      expect(e.listenerCount('x')).toBe(0);
      e.emit('x', 2);
    });
    e.emit('x', 1);
    e.emit('x', 3);
    expect(runs).toBe(1);
  });

  it('removeListener removes every match, narrowed by context and by once; without a listener, all of the event', () => {
    const e = new Emitter<Events>();
    const ctx = {};
    const a = () => {};
    e.on('x', a).on('x', a, ctx).once('x', a);
    expect(e.off('x', a, undefined, true).listenerCount('x')).toBe(2);
    expect(e.off('x', a, {}).listenerCount('x')).toBe(2);
    expect(e.off('x', a, ctx).listenerCount('x')).toBe(1);
    e.on('x', () => {});
    expect(e.off('x', a).listeners('x')).toHaveLength(1);
    expect(e.removeListener('x').eventNames()).toEqual([]);
  });

  it('lists event names in order, removes all listeners, and refuses a listener that is not a function', () => {
    const e = new Emitter<Events>();
    e.on('y', () => {}).on('x', () => {});
    expect(e.eventNames()).toEqual(['y', 'x']);
    expect(e.removeAllListeners('y').eventNames()).toEqual(['x']);
    expect(e.removeAllListeners().eventNames()).toEqual([]);
    expect(() => e.on('x', 5 as never)).toThrow(new TypeError('The listener must be a function'));
  });

  it('is what PaymentsClient emits with', () => {
    const client = new PaymentsClient({ baseUrl: 'https://payments.example.com', accessToken: 'tok' });
    expect(client).toBeInstanceOf(Emitter);
    const attempts: number[] = [];
    client.once('request', (e) => attempts.push(e.attempt));
    client.emit('request', { callId: 'c', method: 'GET', path: '/', route: '/', attempt: 1 });
    client.emit('request', { callId: 'c', method: 'GET', path: '/', route: '/', attempt: 2 });
    expect(attempts).toEqual([1]);
  });
});
