// `partner-payments doctor`: runs the checks in order (URLs, token endpoint, credentials, scopes,
// API, version, clock, webhook secret), prints one line each with the fix, and answers the exit code.
import { APIError, type PaymentsClient, SCOPES, VERSION } from '../../../index.js';
import type { DoctorArgs } from '../args.js';
import { type Output, pad } from '../output.js';
import { type MintResult, makeClient, mintScope, type Target } from '../sdk.js';
import { type Check, checkUrls, checkWebhookSecret, judgeSkew, judgeVersion } from './checks.js';
import {
  type DescriptionAnswer,
  judgeApi,
  judgeCredentials,
  judgeScopes,
  judgeTokenEndpoint,
  tokenRead,
} from './probes.js';

/** Stands in for a client id that is not set, so that the token endpoint can still be tried. */
const PROBE_ID = 'partner-payments-doctor-probe';

const MARK: Record<Check['verdict'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** Runs every check; prints them as they finish (or one JSON document); returns the exit code. */
export async function runDoctor(args: DoctorArgs, out: Output): Promise<number> {
  const checks: Check[] = [];
  const emit = (check: Check) => {
    checks.push(check);
    out.line(`${pad(MARK[check.verdict], 5)} ${pad(check.title, 16)} ${check.message}`);
    if (check.fix && check.verdict !== 'ok') out.line(`${' '.repeat(23)}fix: ${check.fix}`);
  };
  out.line(`partner-payments doctor (partner-payments ${VERSION}, Node.js ${process.versions.node})`);
  await diagnose(args, emit);
  emit(checkWebhookSecret(args.webhookSecret, args.connection.clientSecret.value));
  const failed = checks.filter((c) => c.verdict === 'fail').length;
  const warned = checks.filter((c) => c.verdict === 'warn').length;
  out.line(
    failed === 0
      ? `All checks passed${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.`
      : `${failed} of ${checks.length} checks failed.`,
  );
  out.document({
    command: 'doctor',
    ok: failed === 0,
    sdk_version: VERSION,
    client_id: args.connection.clientId.value ?? null,
    checks,
  });
  return failed === 0 ? 0 : 1;
}

/** The checks that talk to the service, in order; a failure skips those that depend on it. */
async function diagnose(args: DoctorArgs, emit: (check: Check) => void): Promise<void> {
  const conn = args.connection;
  const skip = (id: Check['id'], title: string, why: string) =>
    emit({ id, title, verdict: 'skip', message: `not checked: ${why}` });
  const urls = checkUrls(conn.baseUrl, conn.authUrl);
  emit(urls);
  if (urls.verdict === 'fail') {
    for (const [id, title] of REMOTE) skip(id, title, 'fix the URLs first');
    return;
  }
  const target: Target = {
    clientId: conn.clientId.value || PROBE_ID,
    clientSecret: conn.clientSecret.value || 'partner-payments-doctor-probe-secret',
    baseUrl: conn.baseUrl.value!,
    authUrl: conn.authUrl.value!,
    timeoutMs: args.timeoutMs,
  };
  let apiRoot: string;
  try {
    apiRoot = (makeClient(target).toJSON() as { baseUrl: string }).baseUrl;
  } catch (error) {
    // A rule of the client the URL check above does not know: its message names the option.
    emit({
      id: 'urls',
      title: 'URLs',
      verdict: 'fail',
      message: String((error as Error).message),
      fix: 'see the message',
    });
    return;
  }
  const tokenUrl = `${target.authUrl.replace(/\/+$/, '')}/oauth2/token`;
  const order = [...new Set([...args.scopes, ...SCOPES])];
  const first = await mintScope(target, order[0]!);
  const endpoint = judgeTokenEndpoint(first, tokenUrl);
  emit(endpoint);
  const credentials = judgeCredentials(endpoint.verdict === 'ok' ? first : undefined, conn);
  emit(credentials);

  const clients = new Map<string, PaymentsClient>();
  if (credentials.verdict !== 'ok') {
    skip('scopes', 'scopes', 'needs accepted credentials');
  } else {
    const results: MintResult[] = [first];
    for (const scope of order.slice(1)) results.push(await mintScope(target, scope));
    for (const r of results) if (r.granted) clients.set(r.scope, r.client);
    emit(judgeScopes(results, args.scopes, target.clientId));
  }

  const description = await describe(makeClient(target));
  const read =
    credentials.verdict === 'ok'
      ? await tokenRead(clients)
      : {
          skipped:
            credentials.verdict === 'fail'
              ? 'no token: the credentials were refused, see credentials'
              : 'no token: the token endpoint did not answer',
        };
  const api = judgeApi(description, read, apiRoot);
  emit(api);
  const e = description.error;
  if (!description.document && !(e instanceof APIError && e.code === 'spec_not_available')) {
    skip('version', 'version', 'no API description was answered');
    skip('clock', 'clock', 'the API did not answer');
    return;
  }
  if (description.document) {
    const info = description.document.info as { version?: unknown } | undefined;
    emit({ id: 'version', title: 'version', ...judgeVersion(info?.version, VERSION) });
  } else {
    emit({
      id: 'version',
      title: 'version',
      verdict: 'warn',
      message:
        'the service does not publish its description (spec 4.10 allows spec_not_available); not compared',
      fix: 'ask support which release this environment runs',
    });
  }
  emit({
    id: 'clock',
    title: 'clock',
    ...judgeSkew(description.date, description.sentAt, description.receivedAt, args.maxSkewMs),
  });
}

/** The checks after the URLs, skipped together when the URLs are wrong. */
const REMOTE: [Check['id'], string][] = [
  ['token-endpoint', 'token endpoint'],
  ['credentials', 'credentials'],
  ['scopes', 'scopes'],
  ['api', 'API'],
  ['version', 'version'],
  ['clock', 'clock'],
];

/** GET /pos/v1/.well-known/openapi.json (no token), timed, with its Date header. */
async function describe(client: PaymentsClient): Promise<DescriptionAnswer> {
  const sentAt = Date.now();
  try {
    const { data, status, headers } = await client.specs.openapi().withResponse();
    return { sentAt, receivedAt: Date.now(), status, date: headers.date, document: data };
  } catch (error) {
    const headers = (error as { headers?: Record<string, string> }).headers;
    return { sentAt, receivedAt: Date.now(), date: headers?.date, error };
  }
}
