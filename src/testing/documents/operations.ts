// The mock's operation table (spec sections 4 and 5): every endpoint with its scope, body, answers
// and errors. The router and the OpenAPI document are both derived from it. It is the service's
// description in data, naming the schemas of schemas.ts, so it stands with the documents; the
// routes above (routes/index.ts) serve it.
import type { RequestSchemaName, SchemaName } from './schemas.js';

/**
 * One operation of the service (spec section 4): the one route table. The router derives its
 * routes and scope checks from it (routes/index.ts), request bodies are parsed with its schema, and
 * the OpenAPI document describes it (documents/openapi.ts), so what is served and what is described
 * cannot drift apart.
 */
export interface Operation {
  method: 'get' | 'post';
  /** An OpenAPI path template: `/pos/v1/orders/{order_id}` (the router's params take these names). */
  path: string;
  operationId: string;
  summary: string;
  tag: 'Auth' | 'Orders' | 'Payments' | 'Refunds' | 'Locations' | 'Launch' | 'Webhooks' | 'Public';
  /** The scope required (machine-client tokens); null for the public endpoints. */
  scope: string | null;
  /** Whether POS user-pool tokens are accepted too (order creation only, spec 5.6). */
  userTokens?: boolean;
  /** The JSON request body: the route parses it with this schema (`ctx.body()`). */
  body?: RequestSchemaName;
  /** A form-encoded body instead of JSON: its fields. */
  form?: {
    fields: Readonly<Record<string, { type: 'string'; description: string }>>;
    required: readonly string[];
  };
  /** `html`: a page; `redirect`: a 303 with `Location`; `document`: any JSON object. */
  ok: readonly [number, SchemaName | 'html' | 'redirect' | 'document'];
  /** Error statuses answered with the JSON error envelope. */
  errors: readonly number[];
  /** Error statuses answered with an HTML page (the public pages a browser opens). */
  htmlErrors?: readonly number[];
  query?: readonly { name: string; schema: Readonly<Record<string, unknown>>; description: string }[];
  idempotent?: boolean;
}

const AUTH_ERRORS = [401, 403, 429] as const;

/** Every endpoint of spec section 4 on the base URL, and the token endpoint of section 5. */
export const OPERATIONS = [
  {
    method: 'post',
    path: '/pos/v1/orders',
    operationId: 'createOrder',
    summary: 'Create an order',
    tag: 'Orders',
    scope: 'svc/payments:create',
    userTokens: true,
    body: 'OrderCreateParams',
    ok: [201, 'OrderCreated'],
    errors: [400, ...AUTH_ERRORS, 404, 409, 413, 422],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/pos/v1/orders/{order_id}',
    operationId: 'getOrder',
    summary: 'Get an order with its payments',
    tag: 'Orders',
    scope: 'svc/payments:read',
    ok: [200, 'Order'],
    errors: [...AUTH_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/pos/v1/orders/{order_id}/payments',
    operationId: 'createPayment',
    summary: 'Initiate a card payment',
    tag: 'Payments',
    scope: 'svc/payments:create',
    body: 'PaymentCreateParams',
    ok: [201, 'Payment'],
    errors: [400, ...AUTH_ERRORS, 404, 409, 413, 422],
  },
  {
    method: 'get',
    path: '/pos/v1/orders/{order_id}/payments/{payment_id}',
    operationId: 'getPayment',
    summary: 'Get a payment',
    tag: 'Payments',
    scope: 'svc/payments:read',
    ok: [200, 'Payment'],
    errors: [...AUTH_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/pos/v1/orders/{order_id}/payments/{payment_id}/void',
    operationId: 'voidPayment',
    summary: 'Void a payment before settlement',
    tag: 'Payments',
    scope: 'svc/payments:create',
    ok: [201, 'VoidResult'],
    errors: [...AUTH_ERRORS, 404, 409, 422],
  },
  {
    method: 'post',
    path: '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds',
    operationId: 'createRefund',
    summary: 'Refund a settled payment',
    tag: 'Refunds',
    scope: 'svc/payments:refund',
    body: 'RefundCreateParams',
    ok: [201, 'Refund'],
    errors: [400, ...AUTH_ERRORS, 404, 409, 413, 422],
  },
  {
    method: 'get',
    path: '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds/{refund_id}',
    operationId: 'getRefund',
    summary: 'Get a refund',
    tag: 'Refunds',
    scope: 'svc/payments:read',
    ok: [200, 'Refund'],
    errors: [...AUTH_ERRORS, 404],
  },
  {
    method: 'get',
    path: '/pos/v1/locations',
    operationId: 'listLocations',
    summary: 'List locations in the partner scope',
    tag: 'Locations',
    scope: 'svc/locations:read',
    ok: [200, 'LocationPage'],
    errors: [400, ...AUTH_ERRORS, 422],
    query: [
      {
        name: 'limit',
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
        description: 'Page size',
      },
      { name: 'offset', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Items to skip' },
      { name: 'search', schema: { type: 'string' }, description: 'Fuzzy search on the location name' },
    ],
  },
  {
    method: 'get',
    path: '/pos/v1/locations/{location_id}',
    operationId: 'getLocation',
    summary: 'Get a location',
    tag: 'Locations',
    scope: 'svc/locations:read',
    ok: [200, 'Location'],
    errors: [...AUTH_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/pos/v1/launch-tokens',
    operationId: 'createLaunchToken',
    summary: 'Create a launch token',
    tag: 'Launch',
    scope: 'svc/pos:launch',
    body: 'LaunchTokenCreateParams',
    ok: [201, 'LaunchToken'],
    errors: [400, ...AUTH_ERRORS, 404, 413, 422],
  },
  {
    method: 'post',
    path: '/pos/v1/public/launch-exchange',
    operationId: 'exchangeLaunchToken',
    summary: 'Exchange a launch token for a POS session',
    tag: 'Public',
    scope: null,
    body: 'LaunchExchangeParams',
    ok: [201, 'LaunchSession'],
    errors: [400, 401, 413, 422],
  },
  {
    method: 'get',
    path: '/pos/v1/public/hosted-checkout',
    operationId: 'hostedCheckoutPage',
    summary: 'The hosted payment page',
    tag: 'Public',
    scope: null,
    ok: [200, 'html'],
    errors: [],
    htmlErrors: [400, 410],
    query: [
      { name: 'token', schema: { type: 'string' }, description: 'The signed checkout token (a secret)' },
    ],
  },
  {
    method: 'post',
    path: '/pos/v1/public/hosted-checkout',
    operationId: 'payHostedCheckout',
    summary: 'Pay (or cancel) on the hosted payment page',
    tag: 'Public',
    scope: null,
    form: {
      fields: {
        token: { type: 'string', description: 'The signed checkout token of the page (a secret)' },
        action: { type: 'string', description: '`pay` (default) or `cancel`' },
        card_number: { type: 'string', description: 'The card number (test cards in docs/testing.md)' },
        expiry: { type: 'string', description: 'MM/YY' },
        cvc: { type: 'string', description: 'The card security code' },
      },
      required: ['token'],
    },
    ok: [303, 'redirect'],
    errors: [],
    htmlErrors: [400, 402, 409, 410, 422, 502],
  },
  {
    method: 'get',
    path: '/pos/v1/public/launch',
    operationId: 'launchPage',
    summary: 'The point-of-sale page a launch link opens',
    tag: 'Public',
    scope: null,
    ok: [200, 'html'],
    errors: [],
    query: [{ name: 'launch_token', schema: { type: 'string' }, description: 'The launch token (a secret)' }],
  },
  {
    method: 'get',
    path: '/pos/v1/.well-known/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Public',
    scope: null,
    ok: [200, 'document'],
    errors: [404],
  },
  {
    method: 'get',
    path: '/pos/v1/.well-known/asyncapi.json',
    operationId: 'getAsyncApiDocument',
    summary: 'The AsyncAPI document of the webhook events',
    tag: 'Public',
    scope: null,
    ok: [200, 'document'],
    errors: [404],
  },
  {
    method: 'post',
    path: '/oauth2/token',
    operationId: 'mintToken',
    summary: 'Mint an access token (client credentials)',
    tag: 'Auth',
    scope: null,
    form: {
      fields: {
        grant_type: { type: 'string', description: '`client_credentials`' },
        client_id: { type: 'string', description: 'The machine client id' },
        client_secret: { type: 'string', description: 'The machine client secret' },
        scope: { type: 'string', description: 'Space-separated scopes; omit for all granted' },
      },
      required: ['grant_type'],
    },
    ok: [200, 'TokenResponse'],
    errors: [400, 401, 413],
  },
  {
    method: 'post',
    path: '/admin/v1/partners/{partner_id}/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    tag: 'Webhooks',
    scope: 'svc/webhooks:subscribe',
    body: 'WebhookEndpointCreateParams',
    ok: [201, 'WebhookEndpoint'],
    errors: [400, ...AUTH_ERRORS, 413, 422],
  },
] as const satisfies readonly Operation[];

/** The id of one operation of {@link OPERATIONS}. */
export type OperationId = (typeof OPERATIONS)[number]['operationId'];
