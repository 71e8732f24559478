// `--audit-log FILE`: every call of a write tool (sent, refused, failed, or of unknown outcome)
// appended to FILE as one JSON line, written and synced before the answer goes back to the agent.
// A line holds the time, the tool, the key, the amount, the ids and the outcome with its code, and the
// reservations the call gave back to the budgets; never the arguments whole, and it passes the same
// redaction as every tool result: never a secret.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SecretRegistry } from '../../internal/redact.js';

/** One line of the audit log. */
export interface AuditLine {
  time: string;
  tool: string;
  /** sent: the service answered; refused: this server sent nothing; failed: an error; unknown: it may have landed. */
  outcome: 'sent' | 'refused' | 'failed' | 'unknown';
  /** The error code of a refusal or failure, else null. */
  code: string | null;
  idempotency_key?: string;
  amount_cents?: number;
  order_id?: string;
  payment_id?: string;
  refund_id?: string;
  status?: string;
  /**
   * The reservations this call gave back to the budgets: the keys whose payment or refund it showed
   * moved no money (a void, a declined payment), or that recover found did not land.
   */
  given_back?: GivenBack[];
}

/** One reservation given back to a budget, in an audit line. */
export interface GivenBack {
  kind: 'charge' | 'refund';
  idempotency_key: string;
  amount_cents: number;
  /** What gave it back: the payment's or refund's status, or `not_landed`. */
  status: string;
}

/** The open audit log. */
export interface AuditLog {
  append(line: AuditLine): Promise<void>;
  close(): Promise<void>;
}

/** Opens `path` for appending (mode 0600 when created; its folder created); throws when it cannot. */
export async function openAuditLog(path: string, secrets: SecretRegistry): Promise<AuditLog> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const handle = await open(path, 'a', 0o600);
  let chain: Promise<void> = Promise.resolve();
  return {
    append(line) {
      // One write per line on a file opened for appending: lines of several servers never interleave.
      const text = `${secrets.redact(JSON.stringify(line))}\n`;
      const next = chain.then(async () => {
        await handle.write(text);
        await handle.datasync();
      });
      chain = next.catch(() => undefined);
      return next;
    },
    close: () => handle.close(),
  };
}

/** The ids, the key and the amount of a write call, from its arguments and its result. */
export function auditFields(
  args: unknown,
  out: unknown,
): Omit<AuditLine, 'time' | 'tool' | 'outcome' | 'code'> {
  const a = (args ?? {}) as Record<string, unknown>;
  const o = (out ?? {}) as Record<string, unknown>;
  const payment = (o.payment ?? {}) as Record<string, unknown>;
  const order = (a.order ?? {}) as Record<string, unknown>;
  const text = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '');
  const cents = (...values: unknown[]) => values.find((v): v is number => typeof v === 'number');
  const fields = {
    idempotency_key: text(a.idempotency_key),
    amount_cents: cents(a.amount_cents, order.total_cents),
    order_id: text(payment.order_id, o.order_id, a.order_id),
    payment_id: text(payment.payment_id, o.payment_id, a.payment_id),
    refund_id: text(o.refund_id),
    status: text(payment.status, o.status),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
