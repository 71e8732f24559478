// Types of gc.mjs (a plain .mjs: scripts/check-package.mjs runs it beside kept-heap.mjs).
export function collectGarbage(): Promise<void>;
