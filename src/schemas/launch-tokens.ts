// The zod schemas and types of launch links (spec 4.12): the create and exchange bodies, the launch
// token, and the POS session it is exchanged for.
import * as z from 'zod';
import { DEFAULT_ROLE_SLUG } from './constants.js';
import { timestamp, uuid } from './fields.js';

export { DEFAULT_ROLE_SLUG };

/**
 * The body of `POST /pos/v1/launch-tokens`.
 *
 * @example
 * const params: LaunchTokenCreateParams = { location_id: locationId, user_ref: 'staff-42' };
 */
export const LaunchTokenCreateParams = z.strictObject({
  /** The location whose point-of-sale session the link opens. */
  location_id: uuid,
  /** The role given on first provisioning. @default 'location_cashier' */
  role_slug: z.string().min(1, { error: 'must not be empty' }).optional(),
  /** The partner's identifier of the user the link is for (provisioned on first use). @default undefined (not sent) */
  user_ref: z.string().min(1).optional(),
});
export type LaunchTokenCreateParams = z.input<typeof LaunchTokenCreateParams>;

/**
 * A launch token: single use, valid 10 minutes. `launch_token` and `launch_url` are credentials:
 * do not log them.
 *
 * @example
 * const link: LaunchToken = await client.launchTokens.create({ location_id: locationId });
 * res.redirect(link.launch_url); // never log it
 */
export const LaunchToken = z.looseObject({
  launch_token: z.string(),
  launch_url: z.string(),
  location_id: z.string(),
  role_slug: z.string(),
  expires_at: timestamp,
});
export type LaunchToken = z.infer<typeof LaunchToken>;

/**
 * The body of `POST /pos/v1/public/launch-exchange`.
 *
 * @example
 * const body: LaunchExchangeParams = { launch_token: String(req.query.launch_token) };
 */
export const LaunchExchangeParams = z.strictObject({
  launch_token: z.string().min(1, { error: 'must not be empty' }),
});
export type LaunchExchangeParams = z.input<typeof LaunchExchangeParams>;

/**
 * The POS session a launch token is exchanged for. `session_token` is a credential.
 *
 * @example
 * const session: LaunchSession = await client.launchTokens.exchange(launchToken);
 * if (session.provisioned) console.info(`new POS user ${session.user_id}`);
 */
export const LaunchSession = z.looseObject({
  session_token: z.string(),
  user_id: z.string(),
  location_id: z.string(),
  role_slug: z.string(),
  /** True when this exchange provisioned the POS user (its first use). */
  provisioned: z.boolean(),
  expires_at: timestamp,
});
export type LaunchSession = z.infer<typeof LaunchSession>;
