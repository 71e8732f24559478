// `partner-payments mcp` for payments an agent makes on a person's behalf (api.md 24), driven by the
// MCP SDK's client over stdio against the mock: the order a charge creates under --max-amount-cents,
// the rolling budget (refused before anything is sent, a declined payment giving its amount back, a
// restart keeping what was spent), the duplicate guard, the person's confirmation through MCP
// elicitation (accepted, declined, cancelled, unsupported, and not carried over to another amount),
// and the audit log (one line per write call, never a secret); and the budgets after a lost answer:
// recover giving back a charge that did not land (once), a landed one kept, a refund read failed
// given back. Each rule has its positive control; "nothing was sent" is read from the mock's request
// log. Four server processes in all.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, connectStdio, leaks, type Recorded, type Session, serveRecording } from './helpers.js';

let served: Recorded;
const temps: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `mcp-${name}-`));
  temps.push(dir);
  return dir;
};
beforeAll(async () => {
  served = await serveRecording();
});
afterAll(async () => {
  await served?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const location = () => served.mock.fixtures.partners[0]!.locations.payments;
const sentPosts = () => served.log.filter((l) => l.startsWith('POST /pos/v1')).length;
type Charged = { payment: { payment_id: string; order_id: string; status: string } };

/** A charge of a new order at the payments location. */
const charge = (key: string, total: number, reference: string, amount?: number) => ({
  idempotency_key: key,
  order: { location_id: location(), total_cents: total, external_reference: reference },
  ...(amount === undefined ? {} : { amount_cents: amount }),
});

/** Calls a tool and says whether it sent anything to the mock (POSTs to /pos/v1). */
async function call(server: Session, name: string, args: Record<string, unknown>) {
  const before = sentPosts();
  const result = await server.call(name, args);
  return { result, out: body(result), sent: sentPosts() - before };
}

describe('a server without elicitation: the cap, the budget, the duplicate guard, restart, audit log', () => {
  let state: string;
  let auditLog: string;
  let server: Session;
  const flags = () => [
    '--allow-writes',
    '--state-dir',
    state,
    '--audit-log',
    auditLog,
    '--max-amount-cents',
    '50000',
    '--budget-cents',
    '5000',
    '--budget-window',
    '24h',
    '--confirm-above-cents',
    '4000',
  ];
  beforeAll(async () => {
    state = join(temp('agent-a'), 'state');
    auditLog = join(temp('agent-a-audit'), 'audit', 'calls.jsonl');
    server = await connectStdio(served, flags());
  });
  afterAll(async () => {
    await server?.close();
  });

  it('--max-amount-cents covers the order a charge creates; the refusal sends nothing', async () => {
    // A small payment on a large new order: the order is what the cap refuses.
    const secret = served.mock.credentials.clientSecret;
    const big = await call(server, 'charge', charge(`big-${secret}`, 100_000, 'inv-big', 500));
    expect(big.result.isError).toBe(true);
    expect(big.out).toMatchObject({ error: 'amount_over_limit' });
    expect(big.out.message).toContain('order of 100000 cents');
    expect(big.sent).toBe(0);
  });

  it('a charge above --confirm-above-cents on a client that cannot elicit: confirmation_unavailable, nothing sent', async () => {
    const r = await call(server, 'charge', charge('unconfirmable', 4_500, 'inv-u'));
    expect(r.out).toMatchObject({ error: 'confirmation_unavailable' });
    expect(r.out.message).toContain('--confirm-above-cents 4000');
    expect(r.sent).toBe(0);
  });

  let d1: Charged['payment'];
  it('the duplicate guard: a fresh key for the same order is refused naming the first; another order passes', async () => {
    const first = await call(server, 'charge', charge('dup-1', 100, 'inv-d'));
    expect(first.result.isError, JSON.stringify(first.out)).toBeFalsy();
    expect(first.sent).toBe(2); // the order and its payment
    d1 = (first.out as Charged).payment;
    const again = await call(server, 'charge', charge('dup-2', 100, 'inv-d'));
    expect(again.result.isError).toBe(true);
    expect(again.out).toMatchObject({ error: 'possible_duplicate' });
    expect(again.out.message).toContain('"dup-1"');
    expect(again.out.message).toContain(d1.payment_id);
    expect(again.out.fix).toContain('idempotency_key "dup-1"');
    expect(again.sent).toBe(0);
    // The same order charged by its id under a fresh key is the same purchase again.
    const byId = await call(server, 'charge', {
      idempotency_key: 'dup-4',
      order_id: d1.order_id,
      amount_cents: 100,
    });
    expect(byId.out).toMatchObject({ error: 'possible_duplicate' });
    expect(byId.out.message).toContain('"dup-1"');
    expect(byId.sent).toBe(0);
    // Control: another order (another external reference) is not a duplicate.
    const other = await call(server, 'charge', charge('dup-3', 100, 'inv-d-other'));
    expect(other.result.isError, JSON.stringify(other.out)).toBeFalsy();
    expect(other.sent).toBe(2);
  });

  it('a charge the service refuses gives its reservation back (and its audit line says failed)', async () => {
    const missing = '00000000-0000-4000-8000-00000000dead';
    const r = await call(server, 'charge', {
      idempotency_key: 'missing-order',
      order_id: missing,
      amount_cents: 4_000,
    });
    expect(r.result.isError).toBe(true);
    expect(r.out).toMatchObject({ status: 404 });
    // Its 4 000 cents did not stay reserved: the budget below still has 4 800 to give.
  });

  let a1: Charged['payment'];
  it('the budget refuses the charge that would pass it, naming what is left, and sends nothing', async () => {
    // 200 spent by the two charges above; 2800 more makes 3000.
    const first = await call(server, 'charge', charge('budget-a', 2_800, 'inv-a'));
    expect(first.result.isError, JSON.stringify(first.out)).toBeFalsy();
    a1 = (first.out as Charged).payment;
    const over = await call(server, 'charge', charge('budget-b', 2_500, 'inv-b'));
    expect(over.out).toMatchObject({ error: 'budget_exceeded' });
    expect(over.out.message).toContain('2000 cents is left');
    expect(over.out.message).toContain('--budget-cents 5000');
    expect(over.sent).toBe(0);
    // Control: what is left passes, exactly.
    const fits = await call(server, 'charge', charge('budget-c', 2_000, 'inv-c'));
    expect(fits.result.isError, JSON.stringify(fits.out)).toBeFalsy();
    expect(fits.sent).toBe(2);
    // A retry of a charge under its key is no new spending: the same payment, nothing sent.
    const retry = await call(server, 'charge', charge('budget-a', 2_800, 'inv-a'));
    expect(retry.result.isError, JSON.stringify(retry.out)).toBeFalsy();
    expect((retry.out as Charged).payment.payment_id).toBe(a1.payment_id);
    expect(retry.sent).toBe(0);
  });

  it('a declined payment gives its amount back (read again by the budget check)', async () => {
    const full = await call(server, 'charge', charge('budget-d', 2_800, 'inv-d2'));
    expect(full.out).toMatchObject({ error: 'budget_exceeded' });
    expect(full.sent).toBe(0);
    served.mock.processor.decline(a1.payment_id);
    const after = await call(server, 'charge', charge('budget-d', 2_800, 'inv-d2'));
    expect(after.result.isError, JSON.stringify(after.out)).toBeFalsy();
    expect(after.sent).toBe(2);
  });

  it('a restart keeps what was spent', async () => {
    await server.kill();
    server = await connectStdio(served, flags());
    const r = await call(server, 'charge', charge('after-restart', 100, 'inv-r'));
    expect(r.out).toMatchObject({ error: 'budget_exceeded' });
    expect(r.out.message).toContain('0 cents is left');
    expect(r.sent).toBe(0);
    // The control, a server on another folder with the same budget, is the elicitation server below.
  }, 30_000);

  it('the audit log holds one line per write call, with its outcome, and never a secret', async () => {
    const lines = readFileSync(auditLog, 'utf8').trimEnd().split('\n');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((l) => [l.idempotency_key, l.outcome, l.code])).toEqual([
      [expect.stringMatching(/^big-/), 'refused', 'amount_over_limit'],
      ['unconfirmable', 'refused', 'confirmation_unavailable'],
      ['dup-1', 'sent', null],
      ['dup-2', 'refused', 'possible_duplicate'],
      ['dup-4', 'refused', 'possible_duplicate'],
      ['dup-3', 'sent', null],
      ['missing-order', 'failed', expect.any(String)],
      ['budget-a', 'sent', null],
      ['budget-b', 'refused', 'budget_exceeded'],
      ['budget-c', 'sent', null],
      ['budget-a', 'sent', null],
      ['budget-d', 'refused', 'budget_exceeded'],
      ['budget-d', 'sent', null],
      ['after-restart', 'refused', 'budget_exceeded'],
    ]);
    expect(parsed[2]).toMatchObject({
      tool: 'charge',
      amount_cents: 100,
      order_id: d1.order_id,
      payment_id: d1.payment_id,
      status: 'pending',
    });
    for (const l of parsed) expect(Date.parse(l.time as string)).toBeGreaterThan(0);
    // The planted secret (the client secret inside the first call's key) and every token, URL and
    // launch token the mock handed out are absent.
    const secrets: Record<string, string> = { client_secret: served.mock.credentials.clientSecret };
    served.handedOut.forEach((value, i) => {
      secrets[`handed_out_${i}`] = value;
    });
    const text = readFileSync(auditLog, 'utf8');
    expect(leaks(text, secrets)).toEqual([]);
    expect(text).toContain('[REDACTED]');
    // Control: the scan finds the secret where it was planted (the call's arguments).
    const planted = JSON.stringify(charge(`big-${served.mock.credentials.clientSecret}`, 1, 'x'));
    expect(leaks(planted, secrets)).toEqual(['client_secret']);
    expect(leaks(server.outputs.join('\n') + server.stderr(), secrets)).toEqual([]);
  });
});

describe('a server whose client can ask the person (MCP elicitation)', () => {
  let server: Session;
  const stateB = temp('agent-b');
  const asked: ElicitRequest['params'][] = [];
  const answers: ElicitResult[] = [];
  beforeAll(async () => {
    server = await connectStdio(
      served,
      [
        '--allow-writes',
        '--confirm-above-cents',
        '1000',
        '--refund-budget-cents',
        '500',
        '--budget-cents',
        '5000',
        '--scopes',
        'payments:create,payments:read,locations:read,payments:refund',
        '--state-dir',
        stateB,
      ],
      {},
      {
        elicit: (params) => {
          asked.push(params);
          const answer = answers.shift();
          if (!answer) throw new Error('no answer planned');
          return answer;
        },
      },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  let k1: Charged['payment'];
  let k7: Charged['payment'];
  let refund2: string;
  it('above the threshold the person is asked (amount, location, reference, key); a yes sends it', async () => {
    answers.push({ action: 'accept', content: { confirm: true } });
    const r = await call(server, 'charge', charge('conf-1', 1_500, 'inv-conf-1'));
    expect(r.result.isError, JSON.stringify(r.out)).toBeFalsy();
    expect(r.sent).toBe(2);
    k1 = (r.out as Charged).payment;
    expect(asked).toHaveLength(1);
    const message = (asked[0] as { message: string }).message;
    for (const part of ['1500 cents', location(), 'inv-conf-1', 'conf-1']) expect(message).toContain(part);
  });

  it('declined, cancelled, a yes left unticked, or no answer (the client failed): not_confirmed, nothing sent', async () => {
    // The fourth finds no answer planned: the client's handler throws, as one that never answers does.
    answers.push(
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { confirm: false } },
    );
    for (const key of ['conf-2', 'conf-3', 'conf-4', 'conf-4b']) {
      const r = await call(server, 'charge', charge(key, 1_500, `inv-${key}`));
      expect(r.out, key).toMatchObject({ error: 'not_confirmed' });
      expect(r.sent).toBe(0);
    }
    expect(asked).toHaveLength(5);
  });

  it('a confirmation is bound to its call: the key with another amount is refused, its retry asks nothing', async () => {
    const other = await call(server, 'charge', charge('conf-1', 1_500, 'inv-conf-1', 1_400));
    expect(other.out).toMatchObject({ error: 'idempotency_conflict' });
    expect(other.sent).toBe(0);
    expect(asked).toHaveLength(5); // not asked, and not let through by the first yes
    // The same call again sends nothing (its payment is known): no question for it.
    const retry = await call(server, 'charge', charge('conf-1', 1_500, 'inv-conf-1'));
    expect((retry.out as Charged).payment.payment_id).toBe(k1.payment_id);
    expect(retry.sent).toBe(0);
    expect(asked).toHaveLength(5);
    // A new call for the same amount is asked again: no earlier yes is reused.
    answers.push({ action: 'decline' });
    const fresh = await call(server, 'charge', charge('conf-5', 1_500, 'inv-conf-5'));
    expect(fresh.out).toMatchObject({ error: 'not_confirmed' });
    expect(asked).toHaveLength(6);
  });

  it('a possible duplicate is put to the person: a no refuses it naming the first, a yes lets it through', async () => {
    answers.push({ action: 'decline' });
    const no = await call(server, 'charge', charge('conf-6', 1_500, 'inv-conf-1', 500));
    expect(no.out).toMatchObject({ error: 'possible_duplicate' });
    expect(no.out.message).toContain('"conf-1"');
    expect(no.out.message).toContain(k1.payment_id);
    expect(no.sent).toBe(0);
    expect((asked[6] as { message: string }).message).toContain('conf-1');
    answers.push({ action: 'accept', content: { confirm: true } });
    const yes = await call(server, 'charge', charge('conf-7', 1_500, 'inv-conf-1', 500));
    expect(yes.result.isError, JSON.stringify(yes.out)).toBeFalsy();
    expect(yes.sent).toBe(2); // a new key: a new order and its payment, as the person said
    k7 = (yes.out as Charged).payment;
  });

  it('control of the restart: a server on another folder, with the same budget, has its whole budget', async () => {
    const control = await call(server, 'charge', charge('after-restart', 100, 'inv-r'));
    expect(control.result.isError, JSON.stringify(control.out)).toBeFalsy();
    expect(control.sent).toBe(2);
  });

  it('--refund-budget-cents refuses the refund that would pass it, sending nothing; what is left passes', async () => {
    served.mock.processor.approve(k1.payment_id);
    served.mock.processor.settle(k1.payment_id);
    const refund = (key: string, amount: number) => ({
      idempotency_key: key,
      order_id: k1.order_id,
      payment_id: k1.payment_id,
      amount_cents: amount,
    });
    const over = await call(server, 'refund_payment', refund('refund-1', 600));
    expect(over.out).toMatchObject({ error: 'budget_exceeded' });
    expect(over.out.message).toContain('--refund-budget-cents 500');
    expect(over.out.message).toContain('500 cents is left');
    expect(over.sent).toBe(0);
    const fits = await call(server, 'refund_payment', refund('refund-2', 500));
    expect(fits.result.isError, JSON.stringify(fits.out)).toBeFalsy();
    expect(fits.sent).toBe(1);
    expect(fits.out).toMatchObject({ status: 'pending' });
    refund2 = fits.out.refund_id as string;
  });

  it('a refund that fails after its answer gives its amount back (read again by the budget check)', async () => {
    const refund = {
      idempotency_key: 'refund-3',
      order_id: k1.order_id,
      payment_id: k1.payment_id,
      amount_cents: 500,
    };
    const full = await call(server, 'refund_payment', refund);
    expect(full.out).toMatchObject({ error: 'budget_exceeded' });
    expect(full.sent).toBe(0);
    served.mock.processor.rejectRefund(refund2, 'card closed');
    const after = await call(server, 'refund_payment', refund);
    expect(after.result.isError, JSON.stringify(after.out)).toBeFalsy();
    expect(after.sent).toBe(1);
  });

  it('the tool descriptions say the key names the purchase and is reused on every retry', async () => {
    const { tools } = await server.client.listTools();
    const charge = tools.find((t) => t.name === 'charge');
    expect(charge?.description).toContain('The idempotency_key names the purchase');
    expect(charge?.description).toContain('on every retry of it');
    expect(tools.find((t) => t.name === 'refund_payment')?.description).toContain('names this refund');
  });

  it('a charge on an existing order shows the person its location and external reference', async () => {
    const created = await call(server, 'create_order', {
      idempotency_key: 'co-1',
      order: { location_id: location(), total_cents: 1_200, external_reference: 'inv-co-1' },
    });
    expect(created.result.isError, JSON.stringify(created.out)).toBeFalsy();
    answers.push({ action: 'accept', content: { confirm: true } });
    const paid = await call(server, 'charge', {
      idempotency_key: 'co-1-charge',
      order_id: created.out.order_id,
      amount_cents: 1_200,
    });
    expect(paid.result.isError, JSON.stringify(paid.out)).toBeFalsy();
    expect(paid.sent).toBe(1);
    const message = (asked.at(-1) as { message: string }).message;
    for (const part of [
      '1200 cents',
      location(),
      'inv-co-1',
      'co-1-charge',
      created.out.order_id as string,
    ]) {
      expect(message).toContain(part);
    }
  });

  it('a voided payment gives its amount back (seen in the answer of void_payment)', async () => {
    // 3 300 of the 5 000 are spent (conf-1 1 500, conf-7 500, after-restart 100, co-1-charge 1 200).
    const over = await call(server, 'charge', charge('after-void', 2_200, 'inv-after-void'));
    expect(over.out).toMatchObject({ error: 'budget_exceeded' });
    expect(over.out.message).toContain('1700 cents is left');
    const voided = await call(server, 'void_payment', { order_id: k7.order_id, payment_id: k7.payment_id });
    expect(voided.result.isError, JSON.stringify(voided.out)).toBeFalsy();
    answers.push({ action: 'accept', content: { confirm: true } });
    const fits = await call(server, 'charge', charge('after-void', 2_200, 'inv-after-void'));
    expect(fits.result.isError, JSON.stringify(fits.out)).toBeFalsy();
    expect(fits.sent).toBe(2);
  });

  it('a ledger that cannot be used refuses (ledger_unavailable) and sends nothing', async () => {
    rmSync(join(stateB, 'agent'), { recursive: true, force: true });
    writeFileSync(join(stateB, 'agent'), 'not a folder');
    const r = await call(server, 'charge', charge('no-ledger', 100, 'inv-no-ledger'));
    expect(r.out).toMatchObject({ error: 'ledger_unavailable' });
    expect(r.sent).toBe(0);
  });
});

describe('a lost answer and the budget: recover gives back what did not land, once', () => {
  let state: string;
  let auditLog: string;
  let server: Session;
  beforeAll(async () => {
    state = join(temp('agent-c'), 'state');
    auditLog = join(temp('agent-c-audit'), 'calls.jsonl');
    server = await connectStdio(served, [
      '--allow-writes',
      '--state-dir',
      state,
      '--audit-log',
      auditLog,
      '--budget-cents',
      '5000',
      // Short: a charge whose answer is lost, while the order cannot be read, ends unknown soon.
      '--deadline',
      '4',
      // The mock answers at once: a send is taken as settled 0.3 s after it (30 s by default).
      '--settle',
      '0.3',
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A charge whose answer is lost (a reset) while the order cannot be read: outcome_unknown. */
  async function lost(key: string, total: number, reference: string, phase: 'before' | 'after') {
    served.mock.failNext({ method: 'POST', path: /\/payments$/, phase, network: true });
    served.outage = true;
    try {
      const r = await call(server, 'charge', charge(key, total, reference));
      expect(r.out, key).toMatchObject({ error: 'outcome_unknown', idempotency_key: key });
      // The order is the one its payment was posted to (the last such request the mock saw).
      const posted = served.log.filter((l) => l.startsWith('POST ') && l.endsWith('/payments')).at(-1);
      return posted!.split('/').at(-2)!;
    } finally {
      served.outage = false;
    }
  }
  const paymentsOf = (orderId: string) =>
    served.mock.snapshot().payments.filter((p) => p.order_id === orderId);
  const recover = async () => {
    const r = await call(server, 'recover', { older_than_seconds: 0 });
    expect(r.result.isError, JSON.stringify(r.out)).toBeFalsy();
    expect(r.sent).toBe(0);
    return (r.out as { intents: { idempotency_key: string; outcome: string; payment_id?: string }[] })
      .intents;
  };

  it('a charge that did not land counts until recover (or its retry) settles it not_landed; one that landed keeps counting', async () => {
    // Not created, its answer lost: 3 000 held, on the safe side.
    const notLanded = await lost('lost-1', 3_000, 'inv-lost-1', 'before');
    expect(paymentsOf(notLanded)).toEqual([]);
    // Another, of 500, retried later under its key (below).
    expect(paymentsOf(await lost('lost-3', 500, 'inv-lost-3', 'before'))).toEqual([]);
    const refused = await call(server, 'charge', charge('next-1', 2_500, 'inv-next-1'));
    expect(refused.out, JSON.stringify(refused.out)).toMatchObject({ error: 'budget_exceeded' });
    expect(refused.out.message).toContain('1500 cents is left');
    expect(refused.sent).toBe(0);
    // Created, its answer lost: 1 000 more held.
    const landedOrder = await lost('lost-2', 1_000, 'inv-lost-2', 'after');
    const [landed] = paymentsOf(landedOrder);
    expect(landed).toBeDefined();
    // Every send above is older than settleMs (--settle 0.3 s) by now: the service's records can
    // say it did not land. Until a retry or recover reads them, it keeps counting (next-1 above).
    const verdicts = new Map<string, { outcome: string; payment_id?: string }>();
    // The retry of lost-3 finds it did not land, sends it again, and the service refuses that: the
    // key's record says nothing under it landed, so its 500 are given back (4 000 held: 1 000 left).
    served.mock.failNext({ method: 'POST', path: /\/payments$/, status: 422 });
    const retried = await call(server, 'charge', charge('lost-3', 500, 'inv-lost-3'));
    expect(retried.out).toMatchObject({ status: 422 });
    expect(retried.sent).toBe(1);
    const probe = await call(server, 'charge', charge('probe', 4_000, 'inv-probe'));
    expect(probe.out.message).toContain('1000 cents is left');
    for (const v of await recover()) verdicts.set(v.idempotency_key, v);
    expect(verdicts.get('lost-1')).toMatchObject({ outcome: 'not_landed' });
    expect(verdicts.get('lost-2')).toEqual(
      expect.objectContaining({ outcome: 'landed', payment_id: landed!.payment_id }),
    );
    // lost-1's 3 000 are back: the charge refused above now fits, and is sent.
    const fits = await call(server, 'charge', charge('next-1', 2_500, 'inv-next-1'));
    expect(fits.result.isError, JSON.stringify(fits.out)).toBeFalsy();
    expect(fits.sent).toBe(2);
    // Control: lost-2 landed and keeps its 1 000 (with next-1's 2 500, 1 500 are left).
    const over = await call(server, 'charge', charge('next-2', 2_000, 'inv-next-2'));
    expect(over.out).toMatchObject({ error: 'budget_exceeded' });
    expect(over.out.message).toContain('1500 cents is left');
    expect(over.sent).toBe(0);
    // The ledger names the landed key's payment.
    const ledger = JSON.parse(readFileSync(join(state, 'agent', 'agent-ledger.json'), 'utf8')) as {
      entries: { key: string; payment?: string; released: boolean }[];
    };
    expect(ledger.entries.find((e) => e.key === 'lost-2')).toMatchObject({
      payment: landed!.payment_id,
      released: false,
    });
  }, 60_000);

  it('a second recover gives nothing back twice; the audit log says what was given back, once', async () => {
    await recover();
    const over = await call(server, 'charge', charge('next-2', 2_000, 'inv-next-2'));
    expect(over.out).toMatchObject({ error: 'budget_exceeded' });
    expect(over.out.message).toContain('1500 cents is left');
    const lines = readFileSync(auditLog, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const given = lines.filter((l) => l.given_back !== undefined);
    expect(given).toEqual([
      expect.objectContaining({
        tool: 'charge',
        outcome: 'failed',
        given_back: [{ kind: 'charge', idempotency_key: 'lost-3', amount_cents: 500, status: 'not_landed' }],
      }),
      expect.objectContaining({
        tool: 'recover',
        outcome: 'sent',
        given_back: [
          { kind: 'charge', idempotency_key: 'lost-1', amount_cents: 3_000, status: 'not_landed' },
        ],
      }),
    ]);
    expect(lines.filter((l) => l.tool === 'recover')).toHaveLength(2);
  });
});
