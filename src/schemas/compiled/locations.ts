// Generated from src/schemas/zod/locations.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { array, boolean, int, nullable, object, optional, type Schema, string } from '../check/index.js';
import type * as Z from '../zod/locations.js';
import { pageLimit, pageOffset, timestamp } from './fields.js';

export const Address = /* @__PURE__ */ object(
  {
    line1: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    city: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    state: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    zip: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    country: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'loose',
) as typeof Z.Address & Schema;
export const Location = /* @__PURE__ */ object(
  {
    location_id: /* @__PURE__ */ string(),
    name: /* @__PURE__ */ string(),
    address: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(Address)),
    timezone: /* @__PURE__ */ string(),
    currency: /* @__PURE__ */ string(),
    active: /* @__PURE__ */ boolean(),
    organization_id: /* @__PURE__ */ string(),
    features: /* @__PURE__ */ array(/* @__PURE__ */ string()),
    created_at: timestamp,
  },
  'loose',
) as typeof Z.Location & Schema;
export const LocationListParams = /* @__PURE__ */ object(
  {
    limit: /* @__PURE__ */ optional(pageLimit),
    offset: /* @__PURE__ */ optional(pageOffset),
    search: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'strict',
) as typeof Z.LocationListParams & Schema;
export const LocationSummary = /* @__PURE__ */ object(
  {
    location_id: /* @__PURE__ */ string(),
    name: /* @__PURE__ */ string(),
    address: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(Address)),
    timezone: /* @__PURE__ */ string(),
    currency: /* @__PURE__ */ string(),
    active: /* @__PURE__ */ boolean(),
  },
  'loose',
) as typeof Z.LocationSummary & Schema;
export const LocationPage = /* @__PURE__ */ object(
  {
    items: /* @__PURE__ */ array(LocationSummary),
    total: /* @__PURE__ */ int(),
    limit: /* @__PURE__ */ int(),
    offset: /* @__PURE__ */ int(),
  },
  'loose',
) as typeof Z.LocationPage & Schema;
