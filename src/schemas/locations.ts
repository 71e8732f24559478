// The zod schemas and types of locations (spec 4.8, 4.9): the address, the listed and the read
// location, the list's query parameters, and its page.
import * as z from 'zod';
import { pageLimit, pageOf, pageOffset, timestamp } from './fields.js';

/**
 * A location's postal address; every field may be absent.
 *
 * @example
 * const line = [address.line1, address.city, address.zip].filter(Boolean).join(', ');
 */
export const Address = z.looseObject({
  line1: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
});
export type Address = z.infer<typeof Address>;

/**
 * A location as listed by `GET /pos/v1/locations`.
 *
 * @example
 * for await (const loc of client.locations.list()) if (loc.active) console.log(loc.location_id, loc.name);
 */
export const LocationSummary = z.looseObject({
  location_id: z.string(),
  name: z.string(),
  address: Address.nullable().optional(),
  timezone: z.string(),
  currency: z.string(),
  active: z.boolean(),
});
export type LocationSummary = z.infer<typeof LocationSummary>;

/**
 * A location as read by `GET /pos/v1/locations/{location_id}`, with the get-one fields.
 *
 * @example
 * const location: Location = await client.locations.get(locationId);
 * if (!location.features.includes('payments')) throw new Error('payments not enabled here');
 */
export const Location = LocationSummary.extend({
  organization_id: z.string(),
  /** Applications enabled at the location; `payments` must be among them to accept payments. */
  features: z.array(z.string()),
  created_at: timestamp,
});
export type Location = z.infer<typeof Location>;

/**
 * Query parameters of `GET /pos/v1/locations`.
 *
 * @example
 * const params: LocationListParams = { search: 'downtown', limit: 20 };
 */
export const LocationListParams = z.strictObject({
  /** Page size, 1 to 200. @default 50 */
  limit: pageLimit.optional(),
  /** Items to skip. @default 0 */
  offset: pageOffset.optional(),
  /** Fuzzy search on the location name. @default undefined (every location) */
  search: z.string().optional(),
});
export type LocationListParams = z.input<typeof LocationListParams>;

/**
 * One page of `GET /pos/v1/locations`.
 *
 * @example
 * const page: LocationPage = await client.locations.list({ limit: 50 });
 */
export const LocationPage = pageOf(LocationSummary);
export type LocationPage = z.infer<typeof LocationPage>;
