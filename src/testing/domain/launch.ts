// The mock's launch links (spec 4.12): issuing a launch token, and redeeming it for a POS user.
import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_ROLE_SLUG } from '../../schemas/launch-tokens.js';
import { partnerLocation } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { MockApiError } from '../engine/respond.js';
import type { LocationRecord } from '../state.js';

// The launch-link aggregate (4.12): a single-use launch token, and the POS user it provisions.

/** A launch token lives 10 minutes (spec 4.12). */
export const LAUNCH_TTL_MS = 10 * 60_000;
/** How long an exchanged POS session lasts in the mock. */
export const SESSION_TTL_MS = 8 * 3_600_000;

/** Issues a launch token for a location of the caller's partner (404 outside its scope). */
export function issueLaunchToken(
  core: MockCore,
  caller: { partnerId: string; subject: string },
  params: { location_id: string; role_slug?: string | undefined; user_ref?: string | undefined },
): { token: string; location: LocationRecord; roleSlug: string; expiresAtMs: number } {
  const location = partnerLocation(core.state, caller.partnerId, params.location_id);
  const token = `lt_${randomBytes(24).toString('base64url')}`;
  const roleSlug = params.role_slug ?? DEFAULT_ROLE_SLUG;
  const expiresAtMs = core.clock.now() + LAUNCH_TTL_MS;
  core.state.launchTokens.set(token, {
    partnerId: caller.partnerId,
    locationId: location.location_id,
    roleSlug,
    userRef: params.user_ref ?? `client:${caller.subject}`,
    expiresAtMs,
    used: false,
  });
  return { token, location, roleSlug, expiresAtMs };
}

/**
 * Uses up a launch token and provisions its POS user on first use. 401 `invalid_token` for an
 * unknown or used token, 401 `token_expired` after 10 minutes.
 */
export function redeemLaunchToken(core: MockCore, token: string) {
  const record = core.state.launchTokens.get(token);
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
  return { user, locationId: record.locationId, provisioned };
}
