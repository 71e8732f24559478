import { LocationListParams } from '../../schemas/locations.js';
import type { MockCore } from '../core.js';
import { findLocation } from '../lookup.js';
import { json } from '../respond.js';
import { issuesToError } from '../router.js';
import { fuzzySearch } from '../search.js';
import { locationSummary, locationView } from '../views.js';
import type { Handlers } from './index.js';

/** Query strings carry text: turn numeric ones into numbers so the request schema judges them. */
function queryParams(url: URL): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) {
    out[name] =
      (name === 'limit' || name === 'offset') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** 4.8 list locations and 4.9 get location. */
export function locationRoutes(core: MockCore): Pick<Handlers, 'listLocations' | 'getLocation'> {
  return {
    listLocations(ctx) {
      const parsed = LocationListParams.safeParse(queryParams(ctx.url));
      if (!parsed.success) throw issuesToError(parsed.error.issues);
      const { limit = 50, offset = 0, search } = parsed.data;
      const own = core.state.locationsOf(ctx.caller.partnerId);
      const all = search ? fuzzySearch(own, search, (l) => l.name) : own;
      const items = all.slice(offset, offset + limit).map(locationSummary);
      return json(200, { items, total: all.length, limit, offset }, ctx.requestId);
    },
    getLocation(ctx) {
      const location = findLocation(core.state, ctx.caller, ctx.params.location_id);
      return json(200, locationView(location), ctx.requestId);
    },
  };
}
