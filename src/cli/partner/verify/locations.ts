// Verify's items of spec 4.8 and 4.9: the list with its page envelope and defaults, pagination,
// search, one location with its get-one fields, an unknown location; and the location test orders
// are created at (the first active one with the payments feature, or --location).
import { describeError } from '../sdk.js';
import { LOCATION, LOCATION_SUMMARY, PAGE, type Shape } from './contract.js';
import { type Ctx, type Json, NIL } from './suite.js';

const PAGE_OF_LOCATIONS: Shape = { ...PAGE, items: { items: { shape: LOCATION_SUMMARY } } };

/** The location for test orders, or why there is none. */
export type LocationPick = { id: string } | { id?: undefined; why: string };

/** Runs the location items; returns the location for test orders. */
export async function locationItems(ctx: Ctx): Promise<LocationPick> {
  const { suite, args } = ctx;
  const client = ctx.byScope.get('svc/locations:read');
  if (!client) {
    for (const s of ['4.8', '4.9']) suite.skip(s, 'locations', 'the client lacks svc/locations:read');
    return args.location
      ? { id: args.location }
      : { why: 'the client lacks svc/locations:read: pass --location' };
  }
  const first = await suite.probe(
    '4.8',
    'GET /pos/v1/locations → 200 page (items, total, limit 50, offset 0 by default) of locations with their fields',
    () => client.locations.list(),
    {
      status: 200,
      shape: PAGE_OF_LOCATIONS,
      check: (json) => [
        ...(json.limit === 50 ? [] : [`limit is ${json.limit}, expected the default 50`]),
        ...(json.offset === 0 ? [] : [`offset is ${json.offset}, expected the default 0`]),
        ...(json.items.length <= 50 ? [] : [`${json.items.length} items on a page of 50`]),
      ],
    },
  );
  const page = first.problems.length === 0 ? (first.json as Json) : undefined;
  const items: Json[] = page?.items ?? [];
  const total: number = page?.total ?? 0;

  if (page) await pagination(ctx, items, total);
  else suite.skip('4.8', 'pagination (limit, offset)', 'the list itself deviates');

  const named = items.find((l) => typeof l.name === 'string' && l.name.length >= 3);
  if (named) {
    await suite.probe(
      '4.8',
      'search by a location name → a page that holds it',
      () => client.locations.list({ search: named.name, limit: 200 }),
      {
        status: 200,
        shape: PAGE_OF_LOCATIONS,
        check: (json) =>
          json.items.some((l: Json) => l.location_id === named.location_id)
            ? []
            : [`searching "${named.name}" did not list location ${named.location_id}`],
      },
    );
  } else suite.skip('4.8', 'search by name', 'no listed location to search for');

  const pick = await pickLocation(ctx, items);
  const sample = pick.sample;
  const getOne = 'GET /pos/v1/locations/{id} → 200 with organization_id, features, created_at';
  if (sample) {
    await suite.probe('4.9', getOne, () => client.locations.get(sample), {
      status: 200,
      shape: LOCATION,
      check: (json) => (json.location_id === sample ? [] : ['location_id differs from the one asked for']),
    });
  } else suite.skip('4.9', getOne, 'the list holds no location');
  await suite.probe('4.9', 'an unknown location → 404 location_not_found', () => client.locations.get(NIL), {
    status: 404,
    code: 'location_not_found',
  });
  return pick.forOrders;
}

/** limit=1 pages: one item each, offsets move, the page after the last is empty. */
async function pagination(ctx: Ctx, items: Json[], total: number): Promise<void> {
  const { suite } = ctx;
  const client = ctx.byScope.get('svc/locations:read')!;
  const problems: string[] = [];
  const one = await suite.answer(() => client.locations.list({ limit: 1 }), {
    status: 200,
    shape: PAGE_OF_LOCATIONS,
  });
  problems.push(...one.problems.map((p) => `limit=1: ${p}`));
  const j = one.json as Json;
  if (one.problems.length === 0) {
    if (j.limit !== 1) problems.push(`limit=1 answered limit ${j.limit}`);
    if (j.items.length !== Math.min(1, total)) problems.push(`limit=1 gave ${j.items.length} items`);
    if (j.total !== total) problems.push(`total changed from ${total} to ${j.total} between pages`);
  }
  if (total >= 2 && items.length >= 2) {
    const second = await suite.answer(() => client.locations.list({ limit: 1, offset: 1 }), {
      status: 200,
      shape: PAGE_OF_LOCATIONS,
      check: (json) => [
        ...(json.offset === 1 ? [] : [`offset=1 answered offset ${json.offset}`]),
        ...(json.items[0]?.location_id === items[1].location_id
          ? []
          : ['offset=1 is not the second location of the list']),
      ],
    });
    problems.push(...second.problems.map((p) => `offset=1: ${p}`));
  }
  const beyond = await suite.answer(() => client.locations.list({ limit: 1, offset: total }), {
    status: 200,
    shape: PAGE_OF_LOCATIONS,
    check: (json) =>
      json.items.length === 0 ? [] : [`offset=total gave ${json.items.length} items, expected none`],
  });
  problems.push(...beyond.problems.map((p) => `offset=${total}: ${p}`));
  suite.report(
    '4.8',
    'pagination: limit=1 pages of one item, offset moves, past the end is empty',
    problems,
    `${total} locations`,
  );
}

/**
 * The location to read alone, and the one for test orders: --location (when it is active and has
 * the payments feature), else the first active location (of at most ten read) that has it.
 */
async function pickLocation(ctx: Ctx, items: Json[]): Promise<{ sample?: string; forOrders: LocationPick }> {
  const client = ctx.byScope.get('svc/locations:read')!;
  const chosen = ctx.args.location;
  const fits = (l: Json) => l.active === true && Array.isArray(l.features) && l.features.includes('payments');
  if (chosen) {
    const location: Json = await client.locations.get(chosen).catch((error: unknown) => ({ error }));
    if (location.error)
      return { forOrders: { why: `--location ${chosen} cannot be read (${describeError(location.error)})` } };
    if (!fits(location))
      return {
        sample: chosen,
        forOrders: { why: `--location ${chosen} is not active with the payments feature` },
      };
    return { sample: chosen, forOrders: { id: chosen } };
  }
  const sample: string | undefined = items[0]?.location_id;
  for (const item of items.filter((l) => l.active === true).slice(0, 10)) {
    try {
      const location = await client.locations.get(item.location_id);
      if (fits(location)) return { sample, forOrders: { id: location.location_id } };
    } catch {
      // An unreadable location is judged by the 4.9 item; keep looking.
    }
  }
  const why = 'no active location with the payments feature among the first ten: pass --location';
  return { ...(sample ? { sample } : {}), forOrders: { why } };
}
