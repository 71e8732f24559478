// The `client.locations` resource (spec 4.8, 4.9): lists locations page by page (or item by item)
// and reads one location.
import { APIPromise } from '../core/call/api-promise.js';
import { PagePromise } from '../core/call/pagination.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions, RequestSpec } from '../core/types.js';
import { LocationListParams as ListParams, Location, LocationPage } from '../schemas/compiled/locations.js';
import type * as T from '../schemas/locations.js';
import { ENDPOINTS, requestOf } from './endpoints.js';
import { checkIds } from './ids.js';

/** Locations in your partner scope (spec 4.8, 4.9). */
export class Locations {
  constructor(private readonly client: Requester) {}

  /**
   * Lists locations. Await it for one page, or iterate it for every location of every page.
   *
   * @example
   * const page = await client.locations.list({ search: 'north' });
   * for await (const location of client.locations.list({ limit: 200 })) console.log(location.name);
   */
  list(params: T.LocationListParams = {}, opts?: RequestOptions): PagePromise<T.LocationSummary> {
    // Validated now, but a failure rejects the returned promise (and the iteration) like any other error.
    let query: ReturnType<typeof ListParams.parse>;
    try {
      query = validate(ListParams, params, 'location list parameters');
    } catch (error) {
      return PagePromise.reject(error);
    }
    return new PagePromise(
      (offset) => this.client.request(pageRequest(query, offset, opts)),
      query.offset ?? 0,
    );
  }

  /**
   * Reads one location with its get-one fields (`features`, `organization_id`, `created_at`).
   *
   * Errors: `NotFoundError` `location_not_found` (absent or outside your partner scope).
   *
   * @example
   * const location = await client.locations.get(locationId);
   * if (!location.features.includes('payments')) throw new Error('payments are not enabled here');
   */
  get(locationId: string, opts?: RequestOptions): APIPromise<T.Location> {
    return APIPromise.run(() => {
      checkIds({ locationId });
      return this.client.request(requestOf(ENDPOINTS.getLocation, Location, opts, [locationId]));
    });
  }
}

/** The request of one page of locations (spec 4.8), from `offset`. */
function pageRequest(
  query: ReturnType<typeof ListParams.parse>,
  offset: number,
  opts: RequestOptions | undefined,
): RequestSpec<typeof LocationPage> {
  const spec = requestOf(ENDPOINTS.listLocations, LocationPage, opts);
  spec.query = { ...query, offset };
  return spec;
}
