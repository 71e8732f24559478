// The `path` template tag, which encodes every interpolated path parameter of a request URL.
/**
 * A template tag that encodes each interpolated path parameter, so that a value can never add a
 * path segment (`../`) or a query string.
 *
 * @example
 * path`/pos/v1/orders/${orderId}/payments/${paymentId}`
 */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0]!;
  for (let i = 0; i < params.length; i++) out += encodeURIComponent(params[i]!) + strings[i + 1]!;
  return out;
}
