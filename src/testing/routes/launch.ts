// The mock's launch-link routes (spec 4.12): create a launch token, exchange it, and the launch page.
import { randomBytes } from 'node:crypto';
import { issueLaunchToken, redeemLaunchToken, SESSION_TTL_MS } from '../domain/launch.js';
import type { MockCore } from '../engine/mock-core.js';
import { html, json } from '../engine/respond.js';
import type { Handlers } from './handlers.js';

/** 4.12 create a launch token, exchange it (public), and the launch page the link opens. */
export function launchRoutes(
  core: MockCore,
): Pick<Handlers, 'createLaunchToken' | 'exchangeLaunchToken' | 'launchPage'> {
  return {
    createLaunchToken(ctx) {
      const { token, location, roleSlug, expiresAtMs } = issueLaunchToken(core, ctx.caller, ctx.body());
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
      const { user, locationId, provisioned } = redeemLaunchToken(core, ctx.body().launch_token);
      return json(
        201,
        {
          session_token: `pos_${randomBytes(24).toString('base64url')}`,
          user_id: user.userId,
          location_id: locationId,
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
