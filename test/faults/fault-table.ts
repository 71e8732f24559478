/**
 * The expected outcome of every (fault, call kind) pair: the one source for the fault tests and
 * for the "Fault table" section of docs/retries.md (a test checks the document matches).
 *
 * - `retried`: the SDK retries (or, for a 401 `token_expired`, re-mints the token and replays once)
 *   and the call succeeds, with a single side effect on the service;
 * - `thrown`: the call rejects with the fault's error class, `outcomeUnknown: false`;
 * - `unknown`: the call rejects with the fault's error class and `outcomeUnknown: true` (a payment
 *   or refund whose request may have been processed: read the order before trying again).
 */
import { CALL_KINDS, type CallKind } from './calls.js';
import { FAULT_NAMES, FAULTS, type FaultName } from './faults.js';

export type Outcome = 'retried' | 'thrown' | 'unknown';

type Row = Record<CallKind, Outcome>;

const ALWAYS_RETRIED: Row = {
  'orders.get': 'retried',
  'orders.create': 'retried',
  'payments.create': 'retried',
  'refunds.create': 'retried',
  'payments.void': 'retried',
};
/** An ambiguous failure: the request may have been processed. */
const AMBIGUOUS: Row = {
  'orders.get': 'retried',
  'orders.create': 'retried',
  'payments.create': 'unknown',
  'refunds.create': 'unknown',
  'payments.void': 'retried',
};
/** A 2xx JSON body of the wrong shape or type: the same request would get it again; never retried. */
const UNREADABLE: Row = {
  'orders.get': 'thrown',
  // The order may exist: the error carries its Idempotency-Key to get it back.
  'orders.create': 'unknown',
  'payments.create': 'unknown',
  'refunds.create': 'unknown',
  'payments.void': 'thrown',
};

export const FAULT_TABLE: Record<FaultName, Row> = {
  refused: ALWAYS_RETRIED,
  reset_before_response: AMBIGUOUS,
  reset_mid_body: AMBIGUOUS,
  slow: AMBIGUOUS,
  slow_drip: AMBIGUOUS,
  status_500: AMBIGUOUS,
  status_502_html: AMBIGUOUS,
  status_503_retry_after: AMBIGUOUS,
  status_429_seconds: ALWAYS_RETRIED,
  status_429_date: ALWAYS_RETRIED,
  token_expired: ALWAYS_RETRIED,
  // Not JSON at all: an answer lost on the way, retried like a 5xx where a retry is safe.
  malformed_json: AMBIGUOUS,
  truncated_json: AMBIGUOUS,
  unexpected_shape: UNREADABLE,
  not_json: UNREADABLE,
};

/** One test case: a fault on the first attempt of a call. */
export interface FaultCase {
  fault: FaultName;
  kind: CallKind;
  outcome: Outcome;
}

export function faultCases(): FaultCase[] {
  return FAULT_NAMES.flatMap((fault) =>
    CALL_KINDS.map((kind) => ({ fault, kind, outcome: FAULT_TABLE[fault][kind] })),
  );
}

function cell(fault: FaultName, outcome: Outcome): string {
  if (outcome === 'retried')
    return fault === 'token_expired' ? 'new token, replayed, succeeds' : 'retried, succeeds';
  const error = `\`${FAULTS[fault].error}\``;
  return outcome === 'unknown' ? `${error}, outcome unknown` : error;
}

/** The markdown table of docs/retries.md's "Fault table" section. */
export function renderFaultTable(): string {
  const head = ['Fault on the first attempt', 'Service acted?', ...CALL_KINDS.map((k) => `\`${k}\``)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const fault of FAULT_NAMES) {
    const acted = FAULTS[fault].processed ? 'yes' : 'no';
    const cells = CALL_KINDS.map((kind) => cell(fault, FAULT_TABLE[fault][kind]));
    lines.push(`| ${FAULTS[fault].label} | ${acted} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
