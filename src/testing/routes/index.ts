import type { z } from 'zod';
import type { MockCore } from '../core.js';
import { REQUEST_SCHEMAS } from '../documents/schemas.js';
import { OPERATIONS, type OperationId } from '../operations.js';
import type { Route, RouteContext } from '../router.js';
import { hostedCheckoutRoutes } from './hosted-checkout.js';
import { launchRoutes } from './launch.js';
import { locationRoutes } from './locations.js';
import { orderRoutes } from './orders.js';
import { paymentRoutes } from './payments.js';
import { refundRoutes } from './refunds.js';
import { tokenRoutes } from './token.js';
import { webhookEndpointRoutes } from './webhook-endpoints.js';
import { wellKnownRoutes } from './well-known.js';

type OperationOf<Id extends OperationId> = Extract<(typeof OPERATIONS)[number], { operationId: Id }>;

/** What `ctx.body()` returns for an operation: its request schema's output (never, without one). */
export type BodyOf<Id extends OperationId> =
  OperationOf<Id> extends { body: infer N extends keyof typeof REQUEST_SCHEMAS }
    ? z.output<(typeof REQUEST_SCHEMAS)[N]>
    : never;

/** The handler of one operation of the route table. */
export type Handler<Id extends OperationId> = (ctx: RouteContext<BodyOf<Id>>) => Response | Promise<Response>;

/** One handler per operation of the route table: a missing or unknown one does not compile. */
export type Handlers = { [Id in OperationId]: Handler<Id> };

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
    handle: handlers[op.operationId] as (ctx: RouteContext) => Response | Promise<Response>,
  }));
}
