// The types of the mock's route handlers: one Handler per operation of the route table, its body
// typed from the operation's request schema.
import type { z } from 'zod';
import type { OPERATIONS, OperationId } from '../documents/operations.js';
import type { REQUEST_SCHEMAS } from '../documents/schemas.js';
import type { Answer } from '../engine/respond.js';
import type { RouteContext } from '../engine/router.js';

type OperationOf<Id extends OperationId> = Extract<(typeof OPERATIONS)[number], { operationId: Id }>;

/** What `ctx.body()` returns for an operation: its request schema's output (never, without one). */
export type BodyOf<Id extends OperationId> =
  OperationOf<Id> extends { body: infer N extends keyof typeof REQUEST_SCHEMAS }
    ? z.output<(typeof REQUEST_SCHEMAS)[N]>
    : never;

/** The handler of one operation of the route table. */
export type Handler<Id extends OperationId> = (ctx: RouteContext<BodyOf<Id>>) => Answer | Promise<Answer>;

/** One handler per operation of the route table: a missing or unknown one does not compile. */
export type Handlers = { [Id in OperationId]: Handler<Id> };
