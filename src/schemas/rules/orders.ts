// The order rule that spans fields, as a pure function (no zod): hosted checkout needs both URLs.
import type { RuleIssue } from './rule.js';

/**
 * With only one of `return_url` and `cancel_url` the service creates the order without a hosted
 * checkout page (no `hosted_checkout_url`), which is never what the caller meant: refused.
 */
export function hostedCheckoutIssues(order: { return_url?: string; cancel_url?: string }): RuleIssue[] {
  const hasReturn = order.return_url !== undefined;
  if (hasReturn === (order.cancel_url !== undefined)) return [];
  const [missing, given] = hasReturn ? ['cancel_url', 'return_url'] : ['return_url', 'cancel_url'];
  return [
    {
      path: [missing as string],
      message: `required when ${given} is given: hosted checkout needs both return_url and cancel_url (give both, or neither for an order without a checkout page)`,
    },
  ];
}
