// The zod schemas of locations (spec 4.8, 4.9): the address, the listed and the read location, the
// list's query parameters, and its page. The source of the types (src/schemas/locations.ts), of the
// checks the client runs (src/schemas/compiled/locations.ts), and of the mock's checks and documents.
import * as z from 'zod';
import { pageLimit, pageOf, pageOffset, timestamp } from './fields.js';

/** A location's postal address; every field may be absent. */
export const Address = z.looseObject({
  line1: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
});
/** A location as listed by `GET /pos/v1/locations`. */
export const LocationSummary = z.looseObject({
  location_id: z.string(),
  name: z.string(),
  address: Address.nullable().optional(),
  timezone: z.string(),
  currency: z.string(),
  active: z.boolean(),
});
/** A location as read by `GET /pos/v1/locations/{location_id}`, with the get-one fields. */
export const Location = LocationSummary.extend({
  organization_id: z.string(),
  /** Applications enabled at the location; `payments` must be among them to accept payments. */
  features: z.array(z.string()),
  created_at: timestamp,
});
/** Query parameters of `GET /pos/v1/locations`. */
export const LocationListParams = z.strictObject({
  /** Page size, 1 to 200. @default 50 */
  limit: pageLimit.optional(),
  /** Items to skip. @default 0 */
  offset: pageOffset.optional(),
  /** Fuzzy search on the location name. @default undefined (every location) */
  search: z.string().optional(),
});
/** One page of `GET /pos/v1/locations`. */
export const LocationPage = pageOf(LocationSummary);
