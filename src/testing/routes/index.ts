// `buildRoutes()`: every route of the mock, derived from the operation table, with the handlers of
// the route modules.

import { OPERATIONS } from '../documents/operations.js';
import { REQUEST_SCHEMAS } from '../documents/schemas.js';
import type { MockCore } from '../engine/mock-core.js';
import type { Answer } from '../engine/respond.js';
import type { Route, RouteContext } from '../engine/router.js';
import type { Handlers } from './handlers.js';
import { hostedCheckoutRoutes } from './hosted-checkout.js';
import { launchRoutes } from './launch.js';
import { locationRoutes } from './locations.js';
import { orderRoutes } from './orders.js';
import { paymentRoutes } from './payments.js';
import { refundRoutes } from './refunds.js';
import { tokenRoutes } from './token.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';
import { wellKnownRoutes } from './well-known.js';

/** `/pos/v1/orders/{order_id}` -> `/pos/v1/orders/:order_id` */
export const toPattern = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/**
 * Every route of the mock, derived from the route table (spec section 4 and the token endpoint of
 * section 5): method, path, authentication and scope, and request schema come from
 * {@link OPERATIONS}; the route modules only add the handlers.
 */
export function buildRoutes(core: MockCore): Route[] {
  const handlers: Handlers = {
    ...tokenRoutes(core),
    ...orderRoutes(core),
    ...paymentRoutes(core),
    ...refundRoutes(core),
    ...locationRoutes(core),
    ...launchRoutes(core),
    ...webhookEndpointRoutes(core),
    ...hostedCheckoutRoutes(core),
    ...wellKnownRoutes(core),
  };
  return OPERATIONS.map((op) => ({
    method: op.method.toUpperCase(),
    pattern: toPattern(op.path),
    operationId: op.operationId,
    ...(op.scope ? { auth: { scope: op.scope, allowUserPool: 'userTokens' in op && op.userTokens } } : {}),
    ...('body' in op ? { body: REQUEST_SCHEMAS[op.body] } : {}),
    handle: handlers[op.operationId] as (ctx: RouteContext) => Answer | Promise<Answer>,
  }));
}
