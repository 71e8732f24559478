/**
 * "Nothing leaked" checks with their control. A test that claims a secret never shows up must show
 * that its check would see one: `expectCaught` runs the same rendering and search on a planted copy.
 */
import { inspect } from 'node:util';
import { expect } from 'vitest';

/**
 * Everything a partner could see of a value: its JSON, `String()`, and `util.inspect` at full depth
 * (which prints an error's message, stack, cause and own fields, as a logger or a crash report does).
 */
export function rendered(value: unknown): string {
  let json = '';
  try {
    json = JSON.stringify(value) ?? '';
  } catch {
    // A cycle: inspect below still renders it.
  }
  return `${json}\n${String(value)}\n${inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: false })}`;
}

/** The secrets among `secrets` that `text` contains. */
export function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => text.includes(secret));
}

/** The control: the check finds `secret` once it is planted in the text it searches. */
export function expectCaught(text: string, secret: string): void {
  expect(leaked(text, [secret]), 'the control: a planted secret must be found').toEqual([secret]);
}
