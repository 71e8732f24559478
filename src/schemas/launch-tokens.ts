// Launch links (spec 4.12): the default role; the types of the create and exchange bodies, the launch
// token and the POS session, inferred from src/schemas/zod/launch-tokens.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/launch-tokens.js';

export { DEFAULT_ROLE_SLUG } from './constants.js';

/**
 * The body of `POST /pos/v1/launch-tokens`.
 *
 * @useDeclaredType
 * @example
 * const params: LaunchTokenCreateParams = { location_id: locationId, user_ref: 'staff-42' };
 */
export type LaunchTokenCreateParams = z.input<typeof Z.LaunchTokenCreateParams>;

/**
 * A launch token: single use, valid 10 minutes. `launch_token` and `launch_url` are credentials:
 * do not log them.
 *
 * @useDeclaredType
 * @example
 * const link: LaunchToken = await client.launchTokens.create({ location_id: locationId });
 * res.redirect(link.launch_url); // never log it
 */
export type LaunchToken = z.infer<typeof Z.LaunchToken>;

/**
 * The body of `POST /pos/v1/public/launch-exchange`.
 *
 * @useDeclaredType
 * @example
 * const body: LaunchExchangeParams = { launch_token: String(req.query.launch_token) };
 */
export type LaunchExchangeParams = z.input<typeof Z.LaunchExchangeParams>;

/**
 * The POS session a launch token is exchanged for. `session_token` is a credential.
 *
 * @useDeclaredType
 * @example
 * const session: LaunchSession = await client.launchTokens.exchange(launchToken);
 * if (session.provisioned) console.info(`new POS user ${session.user_id}`);
 */
export type LaunchSession = z.infer<typeof Z.LaunchSession>;
