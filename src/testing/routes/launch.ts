import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_ROLE_SLUG } from '../../schemas/launch-tokens.js';
import type { MockCore } from '../core.js';
import { partnerLocation } from '../lookup.js';
import { html, json, MockApiError } from '../respond.js';
import type { Handlers } from './index.js';

/** A launch token lives 10 minutes (spec 4.12). */
export const LAUNCH_TTL_MS = 10 * 60_000;
/** How long an exchanged POS session lasts in the mock. */
export const SESSION_TTL_MS = 8 * 3_600_000;

/** 4.12 create a launch token, exchange it (public), and the launch page the link opens. */
export function launchRoutes(
  core: MockCore,
): Pick<Handlers, 'createLaunchToken' | 'exchangeLaunchToken' | 'launchPage'> {
  return {
    createLaunchToken(ctx) {
      const params = ctx.body();
      const location = partnerLocation(core.state, ctx.caller.partnerId, params.location_id);
      const token = `lt_${randomBytes(24).toString('base64url')}`;
      const roleSlug = params.role_slug ?? DEFAULT_ROLE_SLUG;
      const expiresAtMs = core.clock.now() + LAUNCH_TTL_MS;
      core.state.launchTokens.set(token, {
        partnerId: ctx.caller.partnerId,
        locationId: location.location_id,
        roleSlug,
        userRef: params.user_ref ?? `client:${ctx.caller.subject}`,
        expiresAtMs,
        used: false,
      });
      return json(
        201,
        {
          launch_token: token,
          launch_url: `${ctx.origin}/pos/v1/public/launch?launch_token=${token}`,
          location_id: location.location_id,
          role_slug: roleSlug,
          expires_at: new Date(expiresAtMs).toISOString(),
        },
        ctx.requestId,
      );
    },
    exchangeLaunchToken(ctx) {
      const { launch_token } = ctx.body();
      const record = core.state.launchTokens.get(launch_token);
      if (!record || record.used) {
        throw new MockApiError(401, 'invalid_token', 'The launch token is unknown or was already used');
      }
      if (core.clock.now() >= record.expiresAtMs) {
        throw new MockApiError(401, 'token_expired', 'The launch token has expired; create a new one');
      }
      record.used = true;
      const userKey = `${record.partnerId}:${record.locationId}:${record.userRef}`;
      let user = core.state.posUsers.get(userKey);
      const provisioned = !user;
      if (!user) {
        user = { userId: randomUUID(), roleSlug: record.roleSlug };
        core.state.posUsers.set(userKey, user);
      }
      return json(
        201,
        {
          session_token: `pos_${randomBytes(24).toString('base64url')}`,
          user_id: user.userId,
          location_id: record.locationId,
          role_slug: user.roleSlug,
          provisioned,
          expires_at: new Date(core.clock.now() + SESSION_TTL_MS).toISOString(),
        },
        ctx.requestId,
      );
    },
    launchPage: (ctx) =>
      html(
        200,
        '<!doctype html><title>POS launch</title><p>The point-of-sale front end opens here: it exchanges the launch token at POST /pos/v1/public/launch-exchange.</p>',
        ctx.requestId,
      ),
  };
}
