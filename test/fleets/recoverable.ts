// The wait before recover() after a worker was killed, for the fleet tests that kill one: a bounded
// poll of the shared intent store, through its public interface, until recover()'s own selection
// offers every key the run left unfinished. A real process cannot run on fake time, and a blind
// sleep must last the worst case every run, where this ends as soon as the store says so.
import type { IntentRecord, IntentStore } from '../../src/index.js';

/** The worker a fleet test kills mid-run. */
export const VICTIM = 0;
/**
 * The deadline of the victim's calls, and so its leases (api.md 17): every key the killed process
 * held is free again this long after the kill at the latest (untilRecoverable's `leaseMs`). Its calls
 * that run out before the kill leave their keys `unknown`, dead keys like the others.
 */
export const VICTIM_DEADLINE_MS = 3_000;

/** How often untilRecoverable reads the store, and how long past its bound it gives a loaded machine. */
const POLL_MS = 100;
const SLACK_MS = 5_000;

export interface RecoverableAfterKill {
  /** The keys that may be left `open` or `unknown`: the dead process's, or every key of the run. */
  keys: string[];
  /** When the process was killed (epoch ms). */
  killedAt: number;
  /** The dead process's leases (its calls' deadline): its keys are free this long after the kill. */
  leaseMs: number;
  /** recover()'s `olderThanMs` (the workers' `settleMs`): it takes a key last written this long ago. */
  settleMs: number;
  /**
   * The last time a live process may have written one of the keys (epoch ms): the kill when no
   * other process used them, else when the others' calls were all answered. @default killedAt
   */
  writtenBy?: number;
}

/** What the wait found: the keys recover() will take, and when it could take them all. */
export interface Recoverable {
  /** Of `keys`, those `open` or `unknown`, every one of which recover()'s selection offers now. */
  keys: number;
  /** In ms after the kill. */
  afterMs: number;
}

/**
 * Waits until recover() would take every one of `keys` that is still `open` or `unknown`: until
 * `unfinished(settleMs)`, recover()'s own selection, lists them all, which needs the dead process's
 * leases lapsed (`leaseMs` after the kill at the latest) and each key last written `settleMs` ago
 * (so its last send is settled, and recover() can tell landed from not landed). No live call holds
 * a key meanwhile (the caller waits for them first), so a key found finished, or never begun, stays
 * so: each read looks again only at the keys still unfinished. Reads the store every POLL_MS;
 * fails, naming the keys still leased or written too recently, SLACK_MS after the later of those two
 * bounds.
 */
export async function untilRecoverable(store: IntentStore, wait: RecoverableAfterKill): Promise<Recoverable> {
  const { killedAt, leaseMs, settleMs, writtenBy = killedAt } = wait;
  const bound = Math.max(killedAt + leaseMs, writtenBy + settleMs) + SLACK_MS;
  let keys = wait.keys;
  for (;;) {
    const records = await Promise.all(keys.map((key) => store.get(key)));
    const dead = records.filter((r): r is IntentRecord => r?.state === 'open' || r?.state === 'unknown');
    keys = dead.map((r) => r.key);
    const offered = new Set((await store.unfinished(settleMs)).map((r) => r.key));
    const waiting = dead.filter((r) => !offered.has(r.key));
    if (waiting.length === 0) return { keys: dead.length, afterMs: Date.now() - killedAt };
    if (Date.now() > bound) {
      const free = new Set((await store.unfinished(0)).map((r) => r.key));
      const leased = waiting.filter((r) => !free.has(r.key)).map((r) => r.key);
      const recent = waiting
        .filter((r) => free.has(r.key))
        .map((r) => `${r.key} (last written ${Date.now() - r.updatedAt} ms ago)`);
      throw new Error(
        `${Date.now() - killedAt} ms after the kill, recover() would not take ${waiting.length} of the ` +
          `${dead.length} unfinished keys: ` +
          `still leased (the dead process's leases are ${leaseMs} ms): [${leased.join(', ')}]; ` +
          `free but written less than settleMs (${settleMs} ms) ago: [${recent.join(', ')}]`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
