// Locations (spec 4.8, 4.9): the types of the address, the listed and the read location, the list's
// query parameters and its page, inferred from src/schemas/zod/locations.ts; and the checks the client
// runs, compiled from it (src/schemas/compiled/locations.ts), so that loading this module loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/locations.js';
import type * as Z from './zod/locations.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const Address = compiled.Address;
/** @hidden */
export const Location = compiled.Location;
/** @hidden */
export const LocationListParams = compiled.LocationListParams;
/** @hidden */
export const LocationPage = compiled.LocationPage;
/** @hidden */
export const LocationSummary = compiled.LocationSummary;

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
