/**
 * Validates request/response exchanges against the mock's own OpenAPI 3.1 document with Ajv (JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1) and this glue: route matching by path template and
 * method, documented status, media type and headers, and the JSON bodies against their schemas.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { Exchange } from '../../src/testing/engine/exchanges.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Json = any;

/** One exchange that does not fit the document. */
export interface Violation {
  exchange: string;
  problem: string;
}

const DOC_ID = 'https://mock.partner-payments.test/openapi.json';

/**
 * Strict mode: every object schema that lists its properties refuses any other (`additionalProperties:
 * false`) unless it declares a schema for them. The document's response objects say
 * `additionalProperties: {}` (read leniently, as the SDK does), so without this a field the mock adds
 * without declaring it passes; a generated client then cannot know it.
 */
export function closeObjects(node: Json): Json {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closeObjects(v)]));
  const open = (extra: unknown) =>
    extra === undefined ||
    extra === true ||
    (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0);
  if (out.properties && typeof out.properties === 'object' && open(node.additionalProperties)) {
    out.additionalProperties = false;
  }
  return out;
}

export function createValidator(source: Json, options: { strict?: boolean } = {}) {
  const doc = options.strict ? closeObjects(source) : source;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (formats as unknown as { default: (a: typeof ajv) => void }).default(ajv);
  ajv.addSchema(doc, DOC_ID);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorFor = (pointer: string) => {
    let v = compiled.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      compiled.set(pointer, v);
    }
    return v;
  };
  const templates = Object.keys(doc.paths).map((path) => ({
    path,
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
  }));
  const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  // Ajv's text, naming the field an `additionalProperties: false` refused (Ajv's own text does not).
  const errorsText = (errors: typeof ajv.errors) =>
    (errors ?? [])
      .map((e) => {
        const extra = e.params.additionalProperty ? ` (${e.params.additionalProperty})` : '';
        return `data${e.instancePath} ${e.message}${extra}`;
      })
      .join(', ');

  return async function validate(exchange: Exchange): Promise<Violation[]> {
    const url = new URL(exchange.url);
    const name = `${exchange.method} ${url.pathname} -> ${exchange.response.status}`;
    const out: Violation[] = [];
    const bad = (problem: string) => out.push({ exchange: name, problem });
    const status = exchange.response.status;
    const text = await exchange.response.text();
    const mediaType = (exchange.response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const template = templates.find((t) => t.pattern.test(url.pathname.replace(/\/+$/, '') || '/'));
    const method = exchange.method.toLowerCase();
    const operation = template ? doc.paths[template.path][method] : undefined;
    const checkJson = (pointer: string) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        bad('the body is not JSON');
        return;
      }
      const v = validatorFor(pointer);
      if (!v(body)) bad(`body: ${errorsText(v.errors)}`);
    };
    if (!operation) {
      // Not an operation of the document: a known path answers 405, anything else 404 (JSON errors).
      const want = template ? 405 : 404;
      if (status !== want) bad(`an undocumented ${template ? 'method' : 'path'} must answer ${want}`);
      if (status === 405 && !exchange.response.headers.get('allow')) bad('405 without Allow');
      checkJson('/components/schemas/ErrorBody');
      return out;
    }
    const pointer = `/paths/${escapePointer(template!.path)}/${method}`;
    const response = operation.responses[String(status)];
    if (!response) {
      bad(`status ${status} is not documented for ${operation.operationId}`);
      return out;
    }
    for (const header of Object.keys(response.headers ?? {})) {
      if (!exchange.response.headers.get(header)) bad(`documented header ${header} is missing`);
    }
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) {
      if (text !== '') bad('a body where the document says none');
    } else if (!content[mediaType]) {
      bad(`media type ${mediaType || '(none)'} is not documented (${Object.keys(content).join(', ')})`);
    } else if (mediaType === 'application/json') {
      checkJson(`${pointer}/responses/${status}/content/application~1json/schema`);
    }
    // A request the mock accepted must be one the document allows.
    if (status < 300 && operation.requestBody?.content?.['application/json']) {
      const v = validatorFor(`${pointer}/requestBody/content/application~1json/schema`);
      let body: unknown;
      try {
        body = JSON.parse(exchange.requestBody);
      } catch {
        body = undefined;
      }
      if (!v(body)) bad(`accepted a request body the document refuses: ${errorsText(v.errors)}`);
    }
    return out;
  };
}
