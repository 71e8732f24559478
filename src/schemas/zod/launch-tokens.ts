// The zod schemas of launch links (spec 4.12): the create and exchange bodies, the launch token, and
// the POS session. The source of the types (src/schemas/launch-tokens.ts), of the checks the client
// runs (src/schemas/compiled/launch-tokens.ts), and of the mock's checks and documents.
import * as z from 'zod';
import { timestamp, uuid } from './fields.js';

/** The body of `POST /pos/v1/launch-tokens`. */
export const LaunchTokenCreateParams = z.strictObject({
  /** The location whose point-of-sale session the link opens. */
  location_id: uuid,
  /** The role given on first provisioning. @default 'location_cashier' */
  role_slug: z.string().min(1, { error: 'must not be empty' }).optional(),
  /** The partner's identifier of the user the link is for (provisioned on first use). @default undefined (not sent) */
  user_ref: z.string().min(1).optional(),
});
/** A launch token: single use, valid 10 minutes (`launch_token` and `launch_url` are credentials). */
export const LaunchToken = z.looseObject({
  launch_token: z.string(),
  launch_url: z.string(),
  location_id: z.string(),
  role_slug: z.string(),
  expires_at: timestamp,
});
/** The body of `POST /pos/v1/public/launch-exchange`. */
export const LaunchExchangeParams = z.strictObject({
  launch_token: z.string().min(1, { error: 'must not be empty' }),
});
/** The POS session a launch token is exchanged for. */
export const LaunchSession = z.looseObject({
  session_token: z.string(),
  user_id: z.string(),
  location_id: z.string(),
  role_slug: z.string(),
  /** True when this exchange provisioned the POS user (its first use). */
  provisioned: z.boolean(),
  expires_at: timestamp,
});
