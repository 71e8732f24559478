// The `client.specs` resource (spec 4.10): fetches the service's OpenAPI and AsyncAPI documents,
// without authentication.
import type { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import type { RequestOptions } from '../core/types.js';
import { JsonDocumentSchema } from '../schemas/specs.js';
import { ENDPOINTS, requestOf } from './endpoints.js';

/**
 * A machine-readable description (OpenAPI 3.1 or AsyncAPI 2.6), as JSON.
 *
 * @example
 * const doc: JsonDocument = await client.specs.openapi();
 * await writeFile('openapi.json', JSON.stringify(doc, null, 2));
 */
export type JsonDocument = Record<string, unknown>;

/** The service's machine-readable descriptions (spec 4.10; no authentication). */
export class Specs {
  constructor(private readonly client: Requester) {}

  /**
   * The OpenAPI 3.1 document of the partner API.
   *
   * Errors: `NotFoundError` `spec_not_available`.
   *
   * @example
   * const doc = await client.specs.openapi();
   * console.log(doc.openapi); // '3.1.0'
   */
  openapi(opts?: RequestOptions): APIPromise<JsonDocument> {
    return this.fetch('openapi.json', opts);
  }

  /**
   * The AsyncAPI 2.6 document of the webhook events.
   *
   * @example
   * const doc = await client.specs.asyncapi();
   */
  asyncapi(opts?: RequestOptions): APIPromise<JsonDocument> {
    return this.fetch('asyncapi.json', opts);
  }

  private fetch(file: 'openapi.json' | 'asyncapi.json', opts?: RequestOptions): APIPromise<JsonDocument> {
    const endpoint = file === 'openapi.json' ? ENDPOINTS.getOpenApiDocument : ENDPOINTS.getAsyncApiDocument;
    return this.client.request(requestOf(endpoint, JsonDocumentSchema, opts));
  }
}
