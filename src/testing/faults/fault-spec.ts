// The fault specification of `mock.failNext` (FaultSpec and its types), its zod schemas and
// cross-field rules, and FaultSpecError for a spec the mock refuses.
import { z } from 'zod';
import { MockControlError } from '../engine/respond.js';

/**
 * When a fault acts: `before` the route runs (nothing is committed when it answers instead), or
 * `after` the route committed its effect (the order or payment exists; only the answer is lost).
 *
 * @example
 * const phase: FaultPhase = 'after';
 */
export type FaultPhase = 'before' | 'after';

/**
 * How a fault spoils the body of the answer: `truncated` (the first half of the text, as a complete
 * response), `html` (an HTML error page, as a proxy sends), `cut` (half the body, then the
 * connection is reset), or a body of your own.
 *
 * @example
 * const body: FaultBody = { text: '{"status": pending', contentType: 'application/json' };
 */
export type FaultBody = 'truncated' | 'html' | 'cut' | { text: string; contentType?: string };

/**
 * A fault to inject into the next matching request(s), for testing a client's error handling.
 *
 * @example
 * mock.failNext({ method: 'POST', path: '/pos/v1/orders', status: 503, retryAfter: 1, times: 2 });
 * // The payment is created, but its answer is lost: the connection is reset.
 * mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
 */
export interface FaultSpec {
  /** Only requests with this method (any case). @default any */
  method?: string;
  /** Only requests whose path equals this string or matches this RegExp. @default any */
  path?: string | RegExp;
  /** Only requests carrying these header values (names in any case). @default any */
  headers?: Record<string, string>;
  /**
   * `before`: the fault answers instead of the route (which never runs). `after`: the route runs
   * and commits its effect, then the fault replaces or spoils its answer.
   * @default 'before'
   */
  phase?: FaultPhase;
  /** Answer with this HTTP status (400-599) and the error envelope instead of the route's answer. */
  status?: number;
  /**
   * Reset the connection instead of answering (through `mock.fetch` the fetch rejects with a
   * `TypeError` like undici's "fetch failed"; on loopback the socket is destroyed).
   * @default false
   */
  network?: boolean;
  /** Spoil the body of the answer (the fault's error or, without `status`, the route's own). */
  body?: FaultBody;
  /**
   * Milliseconds on the mock clock to wait before answering (phase `before`: before the route runs).
   * With a manual clock the answer waits until `mock.clock.advance()` passes it (a client's timeout
   * fires first); with a real-time clock the clock moves by itself.
   * @default 0
   */
  delayMs?: number;
  /** Send the body in `chunks` pieces, one every `everyMs` on the mock clock (a slow-drip body). */
  drip?: { everyMs: number; chunks?: number };
  /** The error code of the body. @default derived from the status (503 -> service_unavailable, ...) */
  error?: string;
  /** The message of the body. @default 'Injected fault' */
  message?: string;
  /** A `Retry-After` header with the status: seconds, or a string sent as is (an HTTP date). */
  retryAfter?: number | string;
  /** How many matching requests fail. @default 1 */
  times?: number;
}

/** The fields of a fault as JSON (the control API's `POST /_mock/v1/faults` takes them). */
export const faultFields = {
  method: z.string().min(1).max(10).optional().describe('Only requests with this method (any case)'),
  path: z.string().startsWith('/').optional().describe('Only requests with exactly this path'),
  headers: z
    .record(z.string().min(1), z.string())
    .optional()
    .describe('Only requests carrying these header values'),
  phase: z
    .enum(['before', 'after'])
    .optional()
    .describe('before: instead of the route (default); after: once the route committed its effect'),
  status: z.number().int().min(400).max(599).optional().describe('The HTTP status to answer with'),
  network: z.boolean().optional().describe('Reset the connection instead of answering'),
  body: z
    .union([
      z.enum(['truncated', 'html', 'cut']),
      z.strictObject({ text: z.string(), contentType: z.string().min(1).optional() }),
    ])
    .optional()
    .describe('Spoil the body: truncated, html, cut (half, then a reset) or { text, contentType }'),
  delayMs: z
    .number()
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe('Wait this long on the mock clock before answering'),
  drip: z
    .strictObject({
      everyMs: z.number().int().min(1).max(600_000),
      chunks: z.number().int().min(2).max(100).optional(),
    })
    .optional()
    .describe('Send the body in chunks (default 4), one every everyMs on the mock clock'),
  error: z.string().min(1).optional().describe('The error code of the body'),
  message: z.string().min(1).optional().describe('The message of the body'),
  retryAfter: z
    .union([z.number().int().min(0), z.string().min(1)])
    .optional()
    .describe('A Retry-After header: seconds, or a string sent as is'),
  times: z.number().int().min(1).max(1000).optional().describe('How many matching requests fail'),
};

/** Rules across fields; each issue names the field it is about. */
export function faultRules(spec: Omit<FaultSpec, 'path'>, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  const { status, network, body, delayMs, drip } = spec;
  if (status === undefined && !network && body === undefined && !delayMs && drip === undefined) {
    issue('status', 'give a status, network: true, a body, delayMs or drip');
  }
  if (network && (status !== undefined || body !== undefined || drip !== undefined)) {
    issue('network', 'a reset sends no answer: leave out status, body and drip');
  }
  if (drip && body === 'cut') issue('drip', 'a cut body cannot also drip');
  for (const field of ['error', 'message', 'retryAfter'] as const) {
    if (spec[field] !== undefined && status === undefined) issue(field, 'needs a status');
  }
}

/** `POST /_mock/v1/faults`: the `failNext` spec as JSON (`path` is an exact path). */
export const FaultJson = z.strictObject(faultFields).superRefine(faultRules);

const FaultSpecSchema = z
  .strictObject({
    ...faultFields,
    path: z.union([z.string().startsWith('/'), z.instanceof(RegExp)]).optional(),
  })
  .superRefine(faultRules);

/**
 * A `failNext` spec the mock refuses; `field` names the field at fault. A {@link MockControlError}
 * with code `invalid` (status 400): the control API answers it as `400 invalid_request`.
 *
 * @example
 * try { mock.failNext({ status: 200 }); } catch (e) { if (e instanceof FaultSpecError) e.field; } // 'status'
 */
export class FaultSpecError extends MockControlError {
  constructor(
    /** The field at fault, e.g. `status` or `drip.everyMs`. */
    readonly field: string,
    message: string,
  ) {
    super(`failNext: ${field}: ${message}`, 'invalid');
    Object.defineProperty(this, 'name', { value: 'FaultSpecError' });
  }
}

/** Checks a spec; throws a {@link FaultSpecError} naming the first bad field. */
export function validateFault(spec: FaultSpec): FaultSpec {
  const result = FaultSpecSchema.safeParse(spec);
  if (result.success) return spec;
  const first = result.error.issues[0]!;
  throw new FaultSpecError(first.path.join('.') || '(spec)', first.message);
}
