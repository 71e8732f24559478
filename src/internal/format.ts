// Numbers in messages, said the way a person would read them.

/** `800 ms`, `1.5 s`, `60 s`: exact to the millisecond, never rounded to a whole second. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** `1 cent`, `0 cents`, `5000 cents`. */
export function formatCents(cents: number): string {
  return `${cents} ${cents === 1 || cents === -1 ? 'cent' : 'cents'}`;
}
