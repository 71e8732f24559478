/**
 * The SDK's version, sent in the `User-Agent` header.
 *
 * @example
 * import { VERSION } from 'partner-payments';
 * console.log(`partner-payments ${VERSION}`);
 */
export const VERSION = '0.2.0';
