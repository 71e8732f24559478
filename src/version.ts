// The package's version: VERSION, sent in the User-Agent and shown in the mock's API documents.
/**
 * The SDK's version, sent in the `User-Agent` header.
 *
 * @example
 * import { VERSION } from 'partner-payments';
 * console.log(`partner-payments ${VERSION}`);
 */
export const VERSION = '0.4.0';
