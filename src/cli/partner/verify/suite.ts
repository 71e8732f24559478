// Verify's items and how an answer is judged: a call through the SDK's client, the exchange the
// recorder kept for it, and the expectation (status, error code and envelope, fields); each item
// is printed as one line (ok, deviation or skipped, with its spec section).
import { InvalidResponseError, type PaymentsClient } from '../../../index.js';
import type { VerifyArgs } from '../args.js';
import { type Output, pad } from '../output.js';
import { describeError, type Target } from '../sdk.js';
import { ERROR, type Shape, shapeProblems } from './contract.js';
import type { Exchange, Recorder } from './recorder.js';

/** `setup`: a mistake of the local set-up kept an item from being judged (not the service's). */
export type Verdict = 'ok' | 'deviation' | 'skipped' | 'setup';

/** One line of the report. */
export interface Item {
  section: string;
  title: string;
  verdict: Verdict;
  detail?: string;
}

/** What an answer must be. */
export interface Expect {
  status: number | readonly number[];
  /** The error code(s) an error answer must carry. */
  code?: string | readonly string[];
  /** The fields of a successful answer. */
  shape?: Shape;
  /** An HTML page rather than JSON (the hosted checkout page). */
  html?: boolean;
  /** More checks of the parsed body; each string is a problem. */
  check?: (json: Json, exchange: Exchange) => string[];
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, after the shape check.
export type Json = any;

/** What a probe saw: the last exchange of the call, its JSON, and the SDK's own result or error. */
export interface Answer {
  exchange: Exchange | undefined;
  json: Json;
  error: unknown;
  problems: string[];
}

/** An id that exists nowhere (for the not-found probes). */
export const NIL = '00000000-0000-4000-8000-000000000000';

/** What the probes share: the suite, the clients by scope, the run's id and what it created. */
export interface Ctx {
  suite: Suite;
  args: VerifyArgs;
  target: Target;
  /** A client with every granted scope verify uses. */
  main: PaymentsClient;
  /** One client per granted scope, each with a token of that scope alone. */
  byScope: Map<string, PaymentsClient>;
  has(scope: string): boolean;
  /** `verify-<date>-<random>`: the prefix of every external_reference. */
  run: string;
  location: string | undefined;
  /** Why there is no location for test orders. */
  noLocation: string;
  /** Orders and payments created, for the report and the clean-up. */
  orders: string[];
  payments: { orderId: string; paymentId: string }[];
  pollIntervalMs: number;
}

const MARK: Record<Verdict, string> = {
  ok: 'ok',
  deviation: 'DEVIATION',
  skipped: 'skipped',
  setup: 'SETUP',
};

/** The items of one run, printed as they are decided. */
export class Suite {
  readonly items: Item[] = [];

  constructor(
    private readonly out: Output,
    readonly rec: Recorder,
  ) {}

  add(item: Item): void {
    this.items.push(item);
    const detail = item.detail ? `: ${item.detail}` : '';
    this.out.line(`${pad(MARK[item.verdict], 10)} ${pad(item.section, 6)} ${item.title}${detail}`);
  }

  skip(section: string, title: string, why: string): void {
    this.add({ section, title, verdict: 'skipped', detail: why });
  }

  /** An item a set-up mistake kept from being judged: `why` says the mistake and its fix. */
  setup(section: string, title: string, why: string): void {
    this.add({ section, title, verdict: 'setup', detail: why });
  }

  /** An item from its problems: ok when there are none. */
  report(section: string, title: string, problems: string[], okDetail?: string): void {
    if (problems.length === 0)
      this.add({ section, title, verdict: 'ok', ...(okDetail ? { detail: okDetail } : {}) });
    else this.add({ section, title, verdict: 'deviation', detail: problems.join('; ') });
  }

  /** Runs `call` and judges the answer it got, without reporting. */
  async answer(call: () => PromiseLike<unknown>, expect: Expect): Promise<Answer> {
    const mark = this.rec.mark();
    let error: unknown;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    const exchange = this.rec.last(mark);
    if (!exchange)
      return { exchange, json: undefined, error, problems: [`no answer: ${describeError(error)}`] };
    const problems = judge(exchange, expect);
    const refused = error instanceof InvalidResponseError && exchange.status < 300 && !expect.html;
    if (refused && problems.length === 0)
      problems.push(`the SDK could not read it: ${(error as Error).message}`);
    if (problems.length > 0) {
      const id = requestId(exchange);
      if (id) problems[problems.length - 1] += ` (request_id ${id})`;
    }
    return { exchange, json: exchange.json, error, problems };
  }

  /** Runs `call`, judges its answer and reports it as one item. */
  async probe(
    section: string,
    title: string,
    call: () => PromiseLike<unknown>,
    expect: Expect,
  ): Promise<Answer> {
    const answer = await this.answer(call, expect);
    this.report(section, title, answer.problems);
    return answer;
  }
}

function requestId(exchange: Exchange): string | undefined {
  const body = exchange.json as { request_id?: unknown } | undefined;
  return typeof body?.request_id === 'string' ? body.request_id : exchange.headers['x-request-id'];
}

const list = (value: number | string | readonly (number | string)[]) =>
  (Array.isArray(value) ? value : [value]).map(String);

/** The problems of one exchange against an expectation. */
export function judge(exchange: Exchange, expect: Expect): string[] {
  const statuses = list(expect.status);
  const codes = expect.code === undefined ? undefined : list(expect.code);
  const json = exchange.json as Json;
  const got = `${exchange.status}${exchange.status >= 400 && typeof json?.error === 'string' ? ` ${json.error}` : ''}`;
  const problems: string[] = [];
  if (!statuses.includes(String(exchange.status))) {
    const want =
      statuses.join(' or ') + (codes && Number(statuses[0]) >= 400 ? ` ${codes.join(' or ')}` : '');
    problems.push(`expected ${want}, got ${got}`);
    if (exchange.status >= 400 || Number(statuses[0]) >= 400) return problems;
  }
  const type = exchange.headers['content-type'] ?? '';
  if (expect.html) {
    if (!/text\/html/i.test(type)) problems.push(`content-type ${type || 'none'}, expected text/html`);
    return problems;
  }
  if (!/json/i.test(type)) problems.push(`content-type ${type || 'none'}, expected JSON (spec 1.6)`);
  if (exchange.status >= 400) {
    problems.push(...shapeProblems(json, ERROR).map((p) => `error envelope (7): ${p}`));
    if (codes && typeof json?.error === 'string' && !codes.includes(json.error)) {
      problems.push(`expected error ${codes.join(' or ')}, got ${json.error}`);
    }
    return problems;
  }
  if (json === undefined) return [...problems, 'the body is not JSON'];
  if (expect.shape) problems.push(...shapeProblems(json, expect.shape));
  if (expect.check && problems.length === 0) problems.push(...expect.check(json, exchange));
  return problems;
}
