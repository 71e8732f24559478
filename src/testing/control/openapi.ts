// The OpenAPI 3.1 document of the mock's control API (`/_mock/v1`), generated from the route table
// that serves it.
import { VERSION } from '../../version.js';
import { jsonSchemaOf } from '../documents/schemas.js';
import type { ControlRoute } from './routes.js';
import { ControlError } from './schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'The body is not JSON, or not the expected shape',
  403: 'A cross-origin or non-loopback request',
  404: 'No such resource in the mock',
  405: 'Another method is served on this path',
  409: 'The control does not fit the current state; nothing changed',
  422: 'A field is out of range',
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ControlError' } } };

function successContent(route: ControlRoute) {
  if (route.response === 'html') return { 'text/html': { schema: { type: 'string' } } };
  if (route.response === 'json-document') return { 'application/json': { schema: { type: 'object' } } };
  return { 'application/json': { schema: jsonSchemaOf(route.response, 'output', 'draft-2020-12') } };
}

function operation(route: ControlRoute) {
  const parameters: Record<string, unknown>[] = [...route.path.matchAll(/\{(\w+)\}/g)].map(
    ([, name = '']) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }),
  );
  const inPath = parameters.length > 0;
  for (const q of route.query ?? []) {
    parameters.push({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: { type: q.type },
    });
  }
  const statuses = new Set([403, ...route.errors]);
  if (inPath) statuses.add(404);
  if (route.body) statuses.add(400).add(422);
  const responses: Record<string, unknown> = {
    [String(route.status)]: { description: 'Done', content: successContent(route) },
  };
  for (const status of [...statuses].sort()) {
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'Error', content: errorContent };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input', 'draft-2020-12') } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the control API, generated from the route table that routes it.
 * The 405 every path answers for another method is listed once, in the description.
 */
export function controlOpenApi(routes: readonly ControlRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Payments mock: control API',
      version: VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Drives the mock from any language: the fixtures (mock credentials), machine clients, user ' +
        'tokens, maintenance, processor outcomes, the clock, faults, webhook deliveries and reset. ' +
        'No authentication; served on the loopback server only. Requests ' +
        'from another origin answer 403; another method on a known path answers 405 with Allow.',
    },
    servers: [{ url: '/', description: 'The mock on loopback' }],
    security: [],
    paths,
    components: { schemas: { ControlError: jsonSchemaOf(ControlError, 'output', 'draft-2020-12') } },
  };
}
