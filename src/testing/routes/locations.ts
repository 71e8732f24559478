// The mock's location routes (spec 4.8, 4.9): list with paging and fuzzy search, and get one.
import { LocationListParams } from '../../schemas/compiled/locations.js';
import { fuzzySearch } from '../domain/search.js';
import { issuesToError } from '../engine/issues.js';
import { findLocation } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { json, jsonText } from '../engine/respond.js';
import { locationSummary, locationView } from '../engine/views.js';
import type { LocationRecord } from '../state.js';
import type { Handlers } from './handlers.js';

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
  const views = new WeakMap<LocationRecord, string>();
  return {
    listLocations(ctx) {
      const query = queryParams(ctx.url);
      const parsed = LocationListParams.safeParse(query);
      if (!parsed.success) throw issuesToError(parsed.error.issues, query);
      const { limit = 50, offset = 0, search } = parsed.data;
      const own = core.state.locationsOf(ctx.caller.partnerId);
      const all = search ? fuzzySearch(own, search, (l) => l.name) : own;
      const items = all.slice(offset, offset + limit).map(locationSummary);
      return json(200, { items, total: all.length, limit, offset }, ctx.requestId);
    },
    getLocation(ctx) {
      const location = findLocation(core.state, ctx.caller, ctx.params.location_id);
      // Locations do not change once seeded: each one's answer is serialized once.
      let text = views.get(location);
      if (text === undefined) {
        text = JSON.stringify(locationView(location));
        views.set(location, text);
      }
      return jsonText(200, text, ctx.requestId);
    },
  };
}
