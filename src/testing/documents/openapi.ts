import { SCOPES } from '../../schemas/common.js';
import { VERSION } from '../../version.js';
import { OPERATIONS, type Operation } from './operations.js';
import { componentSchemas } from './schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication failed',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body over 1 MiB',
  422: 'Business rule failed',
  429: 'Rate limit exceeded',
};

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

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
  const responses: Record<string, unknown> = {
    [status]:
      okSchema === 'html'
        ? { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } }
        : { description: 'Success', content: json(okSchema) },
  };
  for (const code of [...op.errors, 500, 503]) {
    responses[code] = { description: ERROR_TEXT[code] ?? 'Service error', content: json('ErrorBody') };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.scope ? `Requires the scope \`${op.scope}\`.` : 'No authentication.',
    tags: [op.tag],
    security: op.scope ? [{ oauth2: [op.scope] }] : [],
    parameters: [...params, ...query, ...header],
    ...(op.body ? { requestBody: { required: true, content: json(op.body) } } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 description of the service, built from the zod schemas of src/schemas and the
 * operation table above (so the document cannot drift from what the SDK validates).
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
