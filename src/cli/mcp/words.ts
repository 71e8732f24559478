// What the agent rules (guard.ts) say: the questions put to the person (MCP elicitation) and the
// refusals the agent reads, each naming the purchase, what was sent (nothing) and what to do next.
import { formatCents } from '../../internal/format.js';
import { Refusal } from './errors.js';
import type { Entry } from './ledger/ledger.js';
import type { Answer, Purchase, Rules } from './purchase.js';

function where(p: Purchase): string {
  const parts = [
    `amount: ${formatCents(p.amount)}`,
    p.location ? `location: ${p.location}` : undefined,
    p.order ? `order: ${p.order}` : undefined,
    p.reference !== undefined ? `order reference: ${p.reference}` : undefined,
    p.payment ? `payment: ${p.payment}` : undefined,
    `idempotency key: ${p.key}`,
  ];
  return parts.filter(Boolean).join('; ');
}

export function confirmQuestion(p: Purchase, cap: number): string {
  const verb = p.kind === 'charge' ? 'Charge' : 'Refund';
  return `An AI agent asks to ${verb.toLowerCase()} ${formatCents(p.amount)}, above the ${formatCents(cap)} that needs your confirmation (--confirm-above-cents). ${where(p)}. ${verb} this, once?`;
}

export function duplicateQuestion(p: Purchase, earlier: Entry, rules: Rules): string {
  return `An AI agent asks to charge the same order as one charged ${ago(earlier)} (within ${rules.duplicateWindow}) under another key, "${earlier.key}"${earlier.payment ? ` (payment ${earlier.payment})` : ''}: it may be a retry that would charge twice. ${where(p)}. Is this a new, second purchase to charge?`;
}

function ago(e: Entry): string {
  const s = Math.max(0, Math.round((Date.now() - e.at) / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

export function duplicateRefusal(p: Purchase, earlier: Entry, rules: Rules, said: Answer | 'none'): Refusal {
  const payment = earlier.payment
    ? `payment ${earlier.payment}${earlier.order ? ` on order ${earlier.order}` : ''}`
    : 'a payment whose outcome is not known yet';
  const person =
    said === 'decline'
      ? ' The person was asked and did not confirm a second purchase.'
      : said === 'unavailable'
        ? ' This client cannot ask the person (MCP elicitation), so only the earlier purchase stands.'
        : '';
  return new Refusal(
    'possible_duplicate',
    `This charge matches one this server made ${ago(earlier)} under the idempotency_key "${earlier.key}" (${payment}): the same ${p.order ? 'order' : 'location, total and external reference'} within ${rules.duplicateWindow} (--duplicate-window). Nothing was sent.${person}`,
    `If this is a retry of that purchase, call charge again with idempotency_key "${earlier.key}" and its first arguments (or get_payment${earlier.payment ? ` with payment ${earlier.payment}` : ''}): it returns that payment and never charges twice. Only the person can approve a second purchase, when the MCP client can ask them; do not change the request to get past this.`,
  );
}

export function confirmRefusal(p: Purchase, cap: number, said: Answer): Refusal {
  if (said === 'unavailable') {
    return new Refusal(
      'confirmation_unavailable',
      `${p.tool} of ${formatCents(p.amount)} is above ${formatCents(cap)}, which this server must confirm with the person (--confirm-above-cents ${cap}), and this MCP client cannot ask them (it has no elicitation). Nothing was sent.`,
      'Tell the person: this needs an MCP client that supports elicitation, or a server started with a higher --confirm-above-cents. Do not split the amount to get under it.',
    );
  }
  return new Refusal(
    'not_confirmed',
    `${p.tool} of ${formatCents(p.amount)} was not confirmed by the person (declined, cancelled or unanswered). Nothing was sent.`,
    'Do not call it again unless the person asks for it; tell them it was not done.',
  );
}
