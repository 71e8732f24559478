// Locations (spec 4.8, 4.9): the types of the address, the listed and the read location, the list's
// query parameters and its page, inferred from src/schemas/zod/locations.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/locations.js';

/**
 * A location's postal address; every field may be absent.
 *
 * @useDeclaredType
 * @example
 * const line = [address.line1, address.city, address.zip].filter(Boolean).join(', ');
 */
export type Address = z.infer<typeof Z.Address>;

/**
 * A location as listed by `GET /pos/v1/locations`.
 *
 * @useDeclaredType
 * @example
 * for await (const loc of client.locations.list()) if (loc.active) console.log(loc.location_id, loc.name);
 */
export type LocationSummary = z.infer<typeof Z.LocationSummary>;

/**
 * A location as read by `GET /pos/v1/locations/{location_id}`, with the get-one fields.
 *
 * @useDeclaredType
 * @example
 * const location: Location = await client.locations.get(locationId);
 * if (!location.features.includes('payments')) throw new Error('payments not enabled here');
 */
export type Location = z.infer<typeof Z.Location>;

/**
 * Query parameters of `GET /pos/v1/locations`.
 *
 * @useDeclaredType
 * @example
 * const params: LocationListParams = { search: 'downtown', limit: 20 };
 */
export type LocationListParams = z.input<typeof Z.LocationListParams>;

/**
 * One page of `GET /pos/v1/locations`.
 *
 * @useDeclaredType
 * @example
 * const page: LocationPage = await client.locations.list({ limit: 50 });
 */
export type LocationPage = z.infer<typeof Z.LocationPage>;
