// The OpenAPI 3.1 document of the service that the mock serves, generated from the operation table
// and the zod schemas of src/schemas.
import { SCOPES } from '../../schemas/common.js';
import { VERSION } from '../../version.js';
import { OPERATIONS, type Operation } from './operations.js';
import { componentSchemas } from './schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication failed',
  403: 'Not allowed',
  404: 'Not found',
  402: 'Card declined',
  405: 'Method not allowed: the path exists with another method',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body over 1 MiB',
  422: 'Business rule failed',
  429: 'Rate limit exceeded',
  502: 'The processor could not process the payment',
};

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const HTML = { 'text/html': { schema: { type: 'string' } } };
const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before the next request (sent with every 429)',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};
const ALLOW_HEADER = {
  description: 'The methods this path serves',
  schema: { type: 'string' },
};

function okResponse(ok: Operation['ok'][1]) {
  if (ok === 'html') return { description: 'The page', content: HTML };
  if (ok === 'document') {
    return { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } };
  }
  if (ok === 'redirect') {
    return {
      description: 'Paid or cancelled: back to the return or cancel URL',
      headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
    };
  }
  return { description: 'Success', content: json(ok) };
}

function operationObject(op: Operation) {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: `The ${name.replace('_id', '')} identifier`,
    schema: { type: 'string', format: 'uuid' },
  }));
  const query = (op.query ?? []).map((q) => ({
    name: q.name,
    in: 'query',
    required: q.name === 'token',
    description: q.description,
    schema: q.schema,
  }));
  const header = op.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'The same key within 24 hours returns the original response',
          schema: { type: 'string', format: 'uuid' },
        },
      ]
    : [];
  const [status, okSchema] = op.ok;
  const responses: Record<string, unknown> = { [status]: okResponse(okSchema) };
  for (const code of op.htmlErrors ?? []) {
    responses[code] = { description: `${ERROR_TEXT[code] ?? 'Refused'} (an HTML page)`, content: HTML };
  }
  // A path parameter with a malformed percent-escape is a 400 on any route that has one.
  const malformed = params.length > 0 && !op.errors.includes(400) ? [400] : [];
  for (const code of [...malformed, ...op.errors, 405, 500, 503].sort((a, b) => a - b)) {
    responses[code] = {
      description: ERROR_TEXT[code] ?? 'Service error',
      ...(code === 405 ? { headers: { Allow: ALLOW_HEADER } } : {}),
      ...(code === 429 ? { headers: { 'Retry-After': RETRY_AFTER_HEADER } } : {}),
      content: json('ErrorBody'),
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: !op.scope
      ? 'No authentication.'
      : `Requires the scope \`${op.scope}\`${op.userTokens ? '; POS user tokens are accepted too' : ''}.`,
    tags: [op.tag],
    security: op.scope ? [{ oauth2: [op.scope] }] : [],
    parameters: [...params, ...query, ...header],
    ...(op.body ? { requestBody: { required: true, content: json(op.body) } } : {}),
    ...(op.form
      ? {
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: op.form.fields, required: op.form.required },
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 description of the service, built from the zod schemas of src/schemas and the
 * operation table of operations.ts (so the document cannot drift from what the SDK validates).
 */
export function buildOpenApiDocument(origin = 'https://api.payments.test'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const entry = paths[op.path] ?? {};
    entry[op.method] = operationObject(op);
    paths[op.path] = entry;
  }
  const tags = [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({
    name,
    description: `${name} operations`,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Payments Service',
      version: VERSION,
      description: 'Orders, card payments, refunds, locations, launch links and webhook registration.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: origin, description: 'This service' }],
    tags,
    paths,
    components: {
      schemas: componentSchemas('draft-2020-12'),
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials; scopes carry the svc/ prefix.',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/oauth2/token`,
              scopes: Object.fromEntries(SCOPES.map((s) => [s, `Scope ${s}`])),
            },
          },
        },
      },
    },
  };
}
