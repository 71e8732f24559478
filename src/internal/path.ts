/**
 * A template tag that encodes each interpolated path parameter, so that a value can never add a
 * path segment (`../`) or a query string.
 *
 * @example
 * path`/pos/v1/orders/${orderId}/payments/${paymentId}`
 */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < params.length ? encodeURIComponent(params[i]!) : ''),
    '',
  );
}
