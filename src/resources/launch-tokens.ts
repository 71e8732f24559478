// The `client.launchTokens` resource (spec 4.12): creates single-use launch tokens for a POS
// session and exchanges them, keeping the token out of errors and logs.
import { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions } from '../core/types.js';
import { holdSecret } from '../internal/redact.js';
import {
  LaunchExchangeParams,
  LaunchSession,
  LaunchToken,
  LaunchTokenCreateParams,
} from '../schemas/compiled/launch-tokens.js';
import type * as T from '../schemas/launch-tokens.js';
import { ENDPOINTS, requestOf } from './endpoints.js';

/**
 * Launch links: short-lived, single-use tokens that open a point-of-sale session for a user
 * (spec 4.12). A token lives 10 minutes and works once: create it when the user clicks, not ahead.
 */
export class LaunchTokens {
  constructor(private readonly client: Requester) {}

  /**
   * Creates a launch token for a location. Needs the `svc/pos:launch` scope. `launch_token` and
   * `launch_url` are credentials: hand them to the user's browser, never log them.
   *
   * Errors: `RequestValidationError`; `PermissionDeniedError` `insufficient_scope`,
   * `location_out_of_scope`; `NotFoundError` `location_not_found`.
   *
   * @example
   * const link = await client.launchTokens.create({ location_id: locationId, role_slug: 'location_manager' });
   * res.redirect(link.launch_url);
   */
  create(params: T.LaunchTokenCreateParams, opts?: RequestOptions): APIPromise<T.LaunchToken> {
    return APIPromise.run(() => {
      const body = validate(LaunchTokenCreateParams, params, 'launch token');
      return this.client.request(requestOf(ENDPOINTS.createLaunchToken, LaunchToken, opts, undefined, body));
    });
  }

  /**
   * Exchanges a launch token for a POS session (no authentication: the token is the credential).
   * Provisions the POS user on first use. A token works once, so this call is not retried after
   * it may have reached the service.
   *
   * Errors: `BadRequestError` / `GoneError` for an unknown, used or expired token.
   *
   * @example
   * const session = await client.launchTokens.exchange(launchToken);
   */
  exchange(launchToken: string, opts?: RequestOptions): APIPromise<T.LaunchSession> {
    return APIPromise.run(() => {
      const body = validate(LaunchExchangeParams, { launch_token: launchToken }, 'launch exchange');
      // The token is the credential of this call: scrubbed from its errors and logs even when the
      // service echoes it bare ("launch token lt_... was already used").
      const release = holdSecret(launchToken);
      let call: APIPromise<T.LaunchSession>;
      try {
        const spec = requestOf(ENDPOINTS.exchangeLaunchToken, LaunchSession, opts, undefined, body);
        spec.reconcile = { check: 'launch tokens are single use: create a new one and start again' };
        call = this.client.request(spec);
      } catch (error) {
        release();
        throw error;
      }
      call.then(release, release);
      return call;
    });
  }
}
