// Every failure of a tool as what an agent can act on: an error code, the message (the SDK's own,
// already free of secrets, scrubbed again on the way out), and the fix. An outcome the SDK could
// not tell is `outcome_unknown` with the key to retry with: the same key never acts twice.
import {
  APIConnectionError,
  APIError,
  CallError,
  ConfigurationError,
  IdempotencyConflictError,
  PaymentsError,
  RequestValidationError,
  ResultTimeoutError,
} from '../../index.js';

/** What a failed tool call says (the text of its `isError` result, as JSON). */
export interface ToolFailure {
  error: string;
  message: string;
  fix: string;
  outcome_unknown?: true;
  idempotency_key?: string;
  issues?: { path: string; message: string }[];
  status?: number;
  request_id?: string;
}

/** A refusal of the server itself (read-only, amount cap, arguments): nothing was sent. */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fix: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

const retryWithKey = (key: string | undefined) =>
  key === undefined
    ? 'Call the same tool again with the same arguments.'
    : `Call the same tool again with idempotency_key "${key}" and the same arguments: the SDK reads the service's records first and never acts twice. Or call recover later.`;

/** The failure an error means, for the agent. */
export function failureOf(error: unknown): ToolFailure {
  if (error instanceof Refusal) {
    return {
      error: error.code,
      message: error.message,
      fix: error.fix,
      ...(error.issues ? { issues: error.issues } : {}),
    };
  }
  if (error instanceof RequestValidationError) {
    return {
      error: 'validation_error',
      message: error.message,
      fix: 'Correct the fields named in issues and call again; nothing was sent.',
      issues: error.issues.map((i) => ({ path: i.path.join('.') || '(arguments)', message: i.message })),
    };
  }
  if (error instanceof IdempotencyConflictError) {
    return {
      error: 'idempotency_conflict',
      message: error.message,
      fix: 'Call again with the arguments first used with this key to get that result back, or use a new idempotency_key for a new operation.',
      idempotency_key: error.idempotencyKey,
    };
  }
  if (error instanceof CallError && error.outcomeUnknown) {
    return {
      error: 'outcome_unknown',
      message: error.message,
      fix: retryWithKey(error.idempotencyKey),
      outcome_unknown: true,
      ...(error.idempotencyKey === undefined ? {} : { idempotency_key: error.idempotencyKey }),
    };
  }
  if (error instanceof APIError) {
    return {
      error: error.code ?? `http_${error.status}`,
      message: error.code === 'insufficient_scope' ? scopeMessage(error) : error.message,
      fix: apiFix(error),
      status: error.status,
      ...(error.requestId ? { request_id: error.requestId } : {}),
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      error: 'connection_error',
      message: error.message,
      fix: 'The service could not be reached: check PAYMENTS_BASE_URL and the network (partner-payments doctor checks the set-up), then call again.',
    };
  }
  if (error instanceof ResultTimeoutError) {
    return {
      error: 'result_timeout',
      message: error.message,
      fix: 'Call await_payment_result again later, or read the payment with get_payment.',
    };
  }
  if (error instanceof ConfigurationError) {
    return {
      error: 'configuration_error',
      message: error.message,
      fix: 'Fix the server set-up (its PAYMENTS_* variables or flags) and restart it.',
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    error: PaymentsError.is(error) ? 'sdk_error' : 'internal_error',
    message,
    fix: 'Report this error with the tool and arguments used.',
  };
}

/** The scope an insufficient_scope answer names (`svc/payments:refund`), from the SDK's message. */
const missingScope = (error: APIError) => /needs the scope (svc\/[\w:]+)/.exec(error.message)?.[1];

/**
 * An insufficient_scope message for the agent: the scope, without the SDK's advice for code (the
 * client's `scopes` option), which an agent cannot follow; the fix says what it can do.
 */
function scopeMessage(error: APIError): string {
  const scope = missingScope(error);
  const what = scope
    ? `needs the scope ${scope}, which this server did not ask for`
    : 'needs a scope this server did not ask for';
  return `${error.status} This call ${what} (insufficient_scope${error.requestId ? `, request_id ${error.requestId}` : ''}).`;
}

function apiFix(error: APIError): string {
  const { status, code } = error;
  if (code === 'insufficient_scope') {
    const scope = missingScope(error)?.replace(/^svc\//, '') ?? 'payments:refund';
    return `Restart the server with ${scope} added to --scopes (partner-payments mcp --scopes payments:create,payments:read,locations:read,${scope}), and grant it to the API client in the admin portal. Nothing in code changes.`;
  }
  // What a rerun of a charge or refund made before a restart meets: the fix must never be to change
  // the request (a lower amount or a new key is a second charge).
  if (code === 'order_already_paid' || code === 'amount_exceeds_order_total')
    return 'This may be a rerun of a charge that already paid this order: read it (get_order) and look at its payments before anything else. Do not lower the amount or use a new idempotency_key to get past this.';
  if (status === 401)
    return 'The credentials were refused: check PAYMENTS_CLIENT_ID, PAYMENTS_CLIENT_SECRET and PAYMENTS_AUTH_URL (partner-payments doctor), then restart the server.';
  if (status === 404) return 'Check the id (list_locations, get_order); an id belongs to one environment.';
  if (status === 409 || status === 422)
    return 'The service refused this in the current state: read the order or payment (get_order, get_payment) and act on its status.';
  if (status === 429)
    return `Rate limited: wait${error.retryAfterMs ? ` ${Math.ceil(error.retryAfterMs / 1000)} s` : ''} and call again.`;
  if (status >= 500)
    return 'The service failed: call again later (for charge or refund_payment with the same idempotency_key).';
  return 'Correct the request as the message says and call again.';
}
