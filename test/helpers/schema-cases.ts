// Inputs for the tests of the SDK's schemas and of the checks compiled from them
// (test/resources/schema-outcomes.test.ts, test/schemas/compiled.test.ts): for every subject
// (test/helpers/schema-subjects.ts), a valid value with each path in turn removed or replaced by each
// of a list of awkward values, and mutants that change several paths at once (a seeded generator, so
// the list is the same on every run).
import type { SchemaSubject } from './schema-subjects.js';

export { type SchemaSubject, SUBJECTS } from './schema-subjects.js';

import { TS, UUID } from './schema-subjects.js';

class Ticket {
  id = 7;
}
const withGetter = () =>
  Object.defineProperty({}, 'x', { get: () => 1, enumerable: true }) as Record<string, unknown>;
const circular = () => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
};

/** Awkward values, each tried in every field. Functions build a fresh value per use. */
const VALUES: [name: string, make: () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['true', () => true],
  ['0', () => 0],
  ['-0', () => -0],
  ['1', () => 1],
  ['-1', () => -1],
  ['1.5', () => 1.5],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['2^53', () => 2 ** 53],
  ['201', () => 201],
  ['bigint', () => 10n],
  ['empty string', () => ''],
  ['x', () => 'x'],
  ['numeric string', () => '1000'],
  ['41 characters', () => 'y'.repeat(41)],
  ['40 characters', () => 'y'.repeat(40)],
  ['uuid', () => UUID],
  ['upper-case uuid', () => UUID.toUpperCase()],
  ['uuid with a suffix', () => `${UUID}/x`],
  ['https url', () => 'https://shop.example.com/ok'],
  ['loopback http url', () => 'http://127.0.0.1:3000/ok'],
  ['http url', () => 'http://shop.example.com/ok'],
  ['javascript url', () => 'javascript:alert(1)'],
  ['email', () => 'ann@example.com'],
  ['E.164 phone', () => '+15551234567'],
  ['card', () => 'card'],
  ['refund reason', () => 'duplicate'],
  ['event kind', () => 'payment.approved'],
  ['timestamp', () => TS],
  ['empty array', () => []],
  ['array of one', () => [1]],
  ['array of an event kind', () => ['payment.voided']],
  ['empty object', () => ({})],
  ['object', () => ({ a: 1, b: 'two', c: [true, null] })],
  ['Date', () => new Date(0)],
  ['class instance', () => new Ticket()],
  ['getter', withGetter],
  ['circular', circular],
  ['symbol', () => Symbol('s')],
  ['function', () => () => 1],
  // Lengths count code points: 40 emoji are 80 UTF-16 units; a lone surrogate counts as one.
  ['40 emoji', () => '\u{1F600}'.repeat(40)],
  ['41 emoji', () => '\u{1F600}'.repeat(41)],
  ['lone surrogate', () => '\uD83D'],
  ['-1.5', () => -1.5],
  ['-2^53', () => -(2 ** 53)],
  ['-Infinity', () => Number.NEGATIVE_INFINITY],
  ['null-prototype object', () => Object.assign(Object.create(null), { a: 1 })],
  ['inherited key', () => Object.create({ inherited: 1 })],
  ['own constructor key', () => ({ constructor: 'x' })],
  ['own __proto__ key', () => JSON.parse('{"__proto__": {"a": 1}, "b": 2}')],
  // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
  ['sparse array', () => [1, , 3]],
  ['array with a property', () => Object.assign([1], { extra: true })],
  ['Map', () => new Map([['a', 1]])],
];

/** Sets the value at `path` (creating nothing: a missing parent leaves the value as is). */
function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean) {
  if (path.length === 0) return value;
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return target;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (node === null || typeof node !== 'object') return target;
  const last = path[path.length - 1]!;
  if (remove) delete (node as Record<string | number, unknown>)[last];
  else (node as Record<string | number, unknown>)[last] = value;
  return target;
}

/** A small seeded generator (mulberry32): the same mutants on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SchemaCase {
  /** Unique within its subject. */
  name: string;
  input: () => unknown;
}

/**
 * Every case of a subject in groups (the row of one path, the mutants): the valid value and the
 * whole value replaced, then for each path the value removed and replaced by each awkward value, then
 * random mutants that change up to four paths.
 */
export function caseGroupsOf(subject: SchemaSubject, mutants = 120): Record<string, SchemaCase[]> {
  const groups: Record<string, SchemaCase[]> = {
    valid: [{ name: 'valid', input: subject.valid }],
    '(whole value)': VALUES.map(([name, make]) => ({ name: `whole value = ${name}`, input: make })),
  };
  for (const path of subject.paths) {
    const at = path.join('.');
    groups[at] = [
      { name: `${at} removed`, input: () => setAt(subject.valid(), path, undefined, true) },
      ...VALUES.map(([name, make]) => ({
        name: `${at} = ${name}`,
        input: () => setAt(subject.valid(), path, make(), false),
      })),
    ];
  }
  const rand = random(subject.name.length * 7919 + subject.paths.length);
  groups['(mutants)'] = Array.from({ length: mutants }, (_, i) => {
    const changes = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({
      path: subject.paths[Math.floor(rand() * subject.paths.length)]!,
      value: VALUES[Math.floor(rand() * VALUES.length)]!,
      remove: rand() < 0.15,
    }));
    const what = changes.map((c) => `${c.path.join('.')} ${c.remove ? 'removed' : `= ${c.value[0]}`}`);
    return {
      name: `mutant ${i}: ${what.join(', ')}`,
      input: () => {
        let value: unknown = subject.valid();
        for (const c of changes)
          value = setAt(value as Record<string, unknown>, c.path, c.value[1](), c.remove);
        return value;
      },
    };
  });
  return groups;
}
