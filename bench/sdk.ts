/**
 * The built package (`dist/`, what partners install), typed from the sources so that the bench
 * type-checks on a clean clone where `dist/` does not exist yet (`npm test` type-checks before it
 * builds). Loaded by file URL, not by the package's name: tsx resolves the self-reference
 * `partner-payments` to `src/index.ts`, which would measure the sources instead.
 */
import type * as Main from '../src/index.js';
import type * as Stores from '../src/stores/index.js';
import type * as Webhooks from '../src/webhooks/index.js';

const load = (file: string): Promise<unknown> => import(new URL(`../dist/${file}`, import.meta.url).href);

export const sdk = (await load('index.js')) as typeof Main;
export const webhooks = (await load('webhooks.js')) as typeof Webhooks;
export const stores = (await load('stores.js')) as typeof Stores;
