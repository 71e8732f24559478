import type { MockCore } from '../core.js';
import type { MockProcessor } from '../processor.js';
import type { Route } from '../router.js';
import { hostedCheckoutRoutes } from './hosted-checkout.js';
import { launchRoutes } from './launch.js';
import { locationRoutes } from './locations.js';
import { orderRoutes } from './orders.js';
import { paymentRoutes } from './payments.js';
import { refundRoutes } from './refunds.js';
import { tokenRoutes } from './token.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';
import { wellKnownRoutes } from './well-known.js';

/** Every route of the mock (spec section 4 and the token endpoint of section 5). */
export function buildRoutes(core: MockCore, processor: MockProcessor): Route[] {
  return [
    ...tokenRoutes(core),
    ...orderRoutes(core),
    ...paymentRoutes(core),
    ...refundRoutes(core),
    ...locationRoutes(core),
    ...launchRoutes(core),
    ...webhookEndpointRoutes(core),
    ...hostedCheckoutRoutes(core, processor),
    ...wellKnownRoutes(core),
  ];
}
