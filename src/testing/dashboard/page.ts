// The mock's dashboard at `GET /_mock/`: server-rendered, escaped HTML of orders, payments, refunds
// and webhook deliveries with their controls, under a nonce CSP.
import { randomBytes } from 'node:crypto';
import { redact } from '../../internal/redact.js';
import { type ControlDeps, PAYMENT_ACTIONS, REFUND_ACTIONS } from '../control/routes.js';
import { deliveryView } from '../control/views.js';
import { escapeHtml } from '../domain/hosted-page.js';
import { deriveOrderStatus } from '../engine/order-status.js';
import { html, type Reply } from '../engine/respond.js';
import type { MockState, PaymentRecord, RefundRecord } from '../state.js';
import { DASHBOARD_SCRIPT, DASHBOARD_STYLE } from './assets.js';

/** At most this many rows per table, newest first. */
const ROWS = 50;

const e = (value: unknown) => escapeHtml(String(value ?? ''));

function money(cents: number, currency: string): string {
  return `${e(currency)}&nbsp;${(cents / 100).toFixed(2)}`;
}

function badge(status: string): string {
  return `<span class="badge s-${e(status.replace(/[^a-z_]/g, ''))}">${e(status.replace('_', ' '))}</span>`;
}

/** How far a mock-clock time lies from now, for people: "in 4 min", "2 h ago". */
export function relative(atMs: number, nowMs: number): string {
  const diff = atMs - nowMs;
  const abs = Math.abs(diff);
  const text =
    abs < 60_000
      ? `${Math.round(abs / 1000)} s`
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : `${Math.round(abs / 360_000) / 10} h`;
  if (abs < 1000) return 'now';
  return diff > 0 ? `in ${text}` : `${text} ago`;
}

function time(iso: string | null, nowMs: number): string {
  if (!iso) return '<span class="muted">-</span>';
  return `<time datetime="${e(iso)}" title="${e(iso)}">${e(relative(Date.parse(iso), nowMs))}</time>`;
}

function button(label: string, path: string, enabled: boolean, extra = ''): string {
  const state = enabled ? '' : ' disabled';
  return `<button type="button" data-post="${e(path)}" data-label="${e(label)}"${extra}${state}>${e(label)}</button>`;
}

function table(title: string, id: string, head: string[], rows: string[], empty: string): string {
  const body =
    rows.length > 0 ? rows.join('') : `<tr><td colspan="${head.length}" class="empty">${e(empty)}</td></tr>`;
  return `<section aria-labelledby="${id}-title"><h2 id="${id}-title">${e(title)}</h2>
<table id="${id}"><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead>
<tbody>${body}</tbody></table></section>`;
}

const newest = <T extends { created_at: string }>(items: Iterable<T>) =>
  [...items].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, ROWS);

function currencyOf(state: MockState, orderId: string): string {
  const order = state.orders.get(orderId);
  return (order && state.locations.get(order.location_id)?.currency) ?? 'USD';
}

function paymentRow(state: MockState, p: PaymentRecord, nowMs: number): string {
  const id = encodeURIComponent(p.payment_id);
  const buttons = Object.entries(PAYMENT_ACTIONS)
    .map(([action, { from }]) =>
      button(action, `/_mock/v1/payments/${id}/${action}`, (from as readonly string[]).includes(p.status)),
    )
    .join('');
  return `<tr data-payment-id="${e(p.payment_id)}" data-status="${e(p.status)}"><td><code>${e(p.payment_id)}</code></td>
<td><code>${e(p.order_id)}</code></td><td class="num">${money(p.amount_cents, currencyOf(state, p.order_id))}</td>
<td>${badge(p.status)}</td><td>${time(p.updated_at, nowMs)}</td><td class="actions">${buttons}</td></tr>`;
}

function refundRow(state: MockState, r: RefundRecord, nowMs: number): string {
  const id = encodeURIComponent(r.refund_id);
  const buttons = Object.entries(REFUND_ACTIONS)
    .map(([action, { from }]) =>
      button(action, `/_mock/v1/refunds/${id}/${action}`, (from as readonly string[]).includes(r.status)),
    )
    .join('');
  return `<tr data-refund-id="${e(r.refund_id)}" data-status="${e(r.status)}"><td><code>${e(r.refund_id)}</code></td>
<td><code>${e(r.payment_id)}</code></td><td class="num">${money(r.amount_cents, currencyOf(state, r.order_id))}</td>
<td>${badge(r.status)}${r.processor_message ? `<div class="muted small">${e(r.processor_message)}</div>` : ''}</td>
<td>${time(r.created_at, nowMs)}</td><td class="actions">${buttons}</td></tr>`;
}

function deliveryRows(deps: ControlDeps, nowMs: number): string[] {
  const deliveries = deps.mock.webhooks.deliveries().map(deliveryView).reverse().slice(0, ROWS);
  return deliveries.map((d) => {
    const last = d.attempts.at(-1);
    const lastText = last ? (last.status === null ? (last.error ?? 'no answer') : `HTTP ${last.status}`) : '';
    const replay = button(
      'replay',
      `/_mock/v1/deliveries/${encodeURIComponent(d.delivery_id)}/replay`,
      d.status !== 'pending',
    );
    return `<tr data-delivery-id="${e(d.delivery_id)}" data-status="${e(d.status)}"><td>${e(d.event_kind)}<div class="muted small"><code>${e(d.event_id)}</code></div></td>
<td class="small"><code>${e(redact(d.url))}</code></td><td>${badge(d.status)}${d.replay_of ? '<div class="muted small">replay</div>' : ''}</td>
<td class="num">${d.attempts.length}/6${lastText ? ` <span class="muted small">(${e(lastText)})</span>` : ''}</td>
<td>${time(d.next_attempt_at, nowMs)}</td><td class="actions">${replay}</td></tr>`;
  });
}

/** The part of the page the script refreshes: clock, orders, payments, refunds and deliveries. */
export function liveFragment(deps: ControlDeps): string {
  const state = deps.state();
  const nowMs = deps.mock.clock.now();
  const orders = newest(state.orders.values()).map((o) => {
    const status = deriveOrderStatus(o.total_cents, state.paymentsOf(o));
    return `<tr data-order-id="${e(o.order_id)}"><td><code>${e(o.order_id)}</code>${o.description ? `<div class="muted small">${e(o.description)}</div>` : ''}</td>
<td class="num">${money(o.total_cents, currencyOf(state, o.order_id))}</td><td>${badge(status)}</td>
<td>${o.paymentIds.length}</td><td>${time(o.created_at, nowMs)}</td></tr>`;
  });
  const payments = newest(state.payments.values()).map((p) => paymentRow(state, p, nowMs));
  const refunds = newest(state.refunds.values()).map((r) => refundRow(state, r, nowMs));
  const dead = deps.mock.webhooks.deadLetters().length;
  const maintenance = deps.maintenance?.() ?? false;
  const toggle = button(
    maintenance ? 'end maintenance' : 'start maintenance',
    '/_mock/v1/maintenance',
    true,
    ` data-body='{"on":${!maintenance}}'`,
  );
  return `<p class="clock">Mock clock: <strong id="clock-now" data-now-ms="${nowMs}">${e(new Date(nowMs).toISOString())}</strong>
${dead > 0 ? `<span class="badge s-dead_letter">${dead} dead letter${dead === 1 ? '' : 's'}</span>` : ''}
${maintenance ? '<span class="badge s-failed" id="maintenance">maintenance: every API request answers 503</span>' : ''} ${toggle}</p>
${table('Orders', 'orders', ['Order', 'Total', 'Status', 'Payments', 'Created'], orders, 'No orders yet: create one through the API.')}
${table('Payments', 'payments', ['Payment', 'Order', 'Amount', 'Status', 'Updated', 'Processor outcome'], payments, 'No payments yet.')}
${table('Refunds', 'refunds', ['Refund', 'Payment', 'Amount', 'Status', 'Created', 'Processor outcome'], refunds, 'No refunds yet.')}
${table('Webhook deliveries', 'deliveries', ['Event', 'Endpoint', 'Status', 'Attempts', 'Next attempt', ''], deliveryRows(deps, nowMs), 'No deliveries: register a webhook endpoint to receive events.')}`;
}

const ADVANCE = [
  ['+1 min', 60_000],
  ['+15 min', 900_000],
  ['+1 h', 3_600_000],
  ['+1 day', 86_400_000],
] as const;

/**
 * `GET /_mock/`: the whole page; `GET /_mock/?part=live` only the part the script refreshes. Every
 * value is escaped; no token, hosted checkout link or signing secret is ever on it.
 */
export function renderDashboard(deps: ControlDeps, url: URL, requestId: string): Reply {
  const nonce = randomBytes(16).toString('base64');
  const headers = {
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
  if (url.searchParams.get('part') === 'live') return html(200, liveFragment(deps), requestId, headers);
  const advance = ADVANCE.map(([label, ms]) =>
    button(label, '/_mock/v1/clock/advance', true, ` data-body='{"ms":${ms}}'`),
  ).join('');
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Partner Payments mock</title>
<style nonce="${nonce}">${DASHBOARD_STYLE}</style></head>
<body><header><h1>Partner Payments mock</h1>
<div class="controls" role="group" aria-label="Clock and state">${advance}
${button('reset', '/_mock/v1/reset', true, ' data-confirm="Forget every order, payment, refund and delivery?" class="danger"')}
<a href="/_mock/v1/openapi.json">control API</a> <a href="/_mock/v1/fixtures">fixtures</a></div></header>
<p id="toast" role="status" aria-live="polite"></p>
<main id="live">${liveFragment(deps)}</main>
<script nonce="${nonce}">${DASHBOARD_SCRIPT}</script></body></html>`;
  return html(200, page, requestId, headers);
}
