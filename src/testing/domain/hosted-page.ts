// The mock's hosted checkout page: the test cards, the Luhn check, HTML escaping, and the card form
// and notice pages.
/**
 * Test cards of the hosted checkout page (any expiry and CVC work; any other Luhn-valid number approves).
 *
 * @example
 * form.set('card_number', TEST_CARDS.decline); // the page answers 402 and stays on the form
 */
export const TEST_CARDS = {
  /** Approves: the browser is redirected to `return_url?order_id=...&status=paid`. */
  approve: '4242424242424242',
  /** Declines: the customer stays on the page with a message. */
  decline: '4000000000000002',
  /** A processing error (the payment is `failed`): the customer stays on the page. */
  processingError: '4000000000000119',
} as const;

/** Whether a card number passes the Luhn check (13 to 19 digits). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:6px;border:0;background:#1f5eff;color:#fff}
button.secondary{background:#e6e9f0;color:#1d2330}.message{padding:.6rem;background:#fde8e8;border-radius:6px}</style>
</head><body>${body}</body></html>`;
}

/** The card form of the hosted checkout page. The token rides in a hidden field, never in a log. */
export function checkoutPage(input: {
  actionPath: string;
  token: string;
  totalCents: number;
  currency: string;
  description: string | null;
  message?: string;
}): string {
  const amount = (input.totalCents / 100).toFixed(2);
  const message = input.message ? `<p class="message" role="alert">${escapeHtml(input.message)}</p>` : '';
  return shell(
    'Pay',
    `<h1>Pay ${escapeHtml(input.currency)} ${amount}</h1>
${input.description ? `<p>${escapeHtml(input.description)}</p>` : ''}${message}
<form method="post" action="${escapeHtml(input.actionPath)}">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number">
<label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp">
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc">
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
</form>`,
  );
}

/** A page without a form: a used or expired link, or a link that is not ours. */
export function noticePage(title: string, text: string): string {
  return shell(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
