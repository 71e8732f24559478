// The pure judgements of `partner-payments doctor`: the URLs, the served API version against the
// SDK's, the clock skew from a Date header, and the webhook secret's form. Each returns a Check
// with its verdict, a one-line message and the fix; nothing here sends a request.
import { isLoopbackHost } from '../../../internal/loopback.js';
import type { Setting } from '../../shared/connection.js';
import { duration } from '../output.js';

export type CheckVerdict = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the doctor's report. A `warn` or `skip` does not fail the run; a `fail` does. */
export interface Check {
  id: 'urls' | 'token-endpoint' | 'credentials' | 'scopes' | 'api' | 'version' | 'clock' | 'webhook-secret';
  title: string;
  verdict: CheckVerdict;
  message: string;
  /** What to do; given for `fail` and `warn`. */
  fix?: string;
}

/** The service release this SDK was written against (spec section 9: v1.0 to v1.2). */
export const API_RELEASE = { major: 1, minor: 2 } as const;

/** The flag or variable a setting came from, for messages. */
const where = (s: Setting) => (s.source === 'flag' ? s.flag : s.env);

/** One URL's problem, or its normalised form. */
function urlProblem(s: Setting, role: 'base' | 'auth'): { problem: string; fix: string } | { url: URL } {
  const name = where(s);
  const example = role === 'base' ? 'https://api.payments.example.com' : 'https://auth.payments.example.com';
  if (!s.value) {
    return {
      problem: `no ${role} URL: ${s.env} is not set`,
      fix: `set ${s.env} (or pass ${s.flag}) to your environment's ${role === 'base' ? 'API root, without /pos/v1' : 'token issuer root'}, e.g. ${example}`,
    };
  }
  let url: URL;
  try {
    url = new URL(s.value);
  } catch {
    return { problem: `${name} is not a URL`, fix: `set ${name} to an https:// URL, e.g. ${example}` };
  }
  if (url.username || url.password) {
    return { problem: `${name} carries a user name or password`, fix: `remove them from ${name}` };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      problem: `${name} is http:// on ${url.host}: the service answers only https (spec 1.1); http:// is accepted only on this machine (the mock)`,
      fix: `use https://${url.host}${url.pathname === '/' ? '' : url.pathname}`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `${name} is a ${url.protocol} URL`, fix: `use an https:// URL, e.g. ${example}` };
  }
  if (url.search || url.hash) {
    return {
      problem: `${name} has a query or fragment`,
      fix: `use the root alone: ${url.origin}${url.pathname}`,
    };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (role === 'auth' && /\/oauth2\/token$/.test(path)) {
    return {
      problem: `${name} ends with /oauth2/token, which the client appends itself (tokens would be asked at .../oauth2/token/oauth2/token)`,
      fix: `set ${name} to ${url.origin}${path.replace(/\/oauth2\/token$/, '')}`,
    };
  }
  if (role === 'base' && /\/pos\/v1\/./.test(path)) {
    return {
      problem: `${name} names an endpoint (${path}), not the API root`,
      fix: `set ${name} to ${url.origin}${path.replace(/\/pos\/v1\/.*$/, '')}`,
    };
  }
  return { url };
}

/** Check 1: the base and auth URLs (https, or http on loopback only). */
export function checkUrls(base: Setting, auth: Setting): Check {
  const title = 'URLs';
  const b = urlProblem(base, 'base');
  if ('problem' in b) return { id: 'urls', title, verdict: 'fail', message: b.problem, fix: b.fix };
  const a = urlProblem(auth, 'auth');
  if ('problem' in a) return { id: 'urls', title, verdict: 'fail', message: a.problem, fix: a.fix };
  const root = `${b.url.origin}${b.url.pathname.replace(/\/+$/, '').replace(/\/pos\/v1$/, '')}`;
  const issuer = `${a.url.origin}${a.url.pathname.replace(/\/+$/, '')}`;
  const plain =
    b.url.protocol === 'http:' || a.url.protocol === 'http:' ? ' (http on loopback: the mock)' : '';
  const same =
    auth.source === 'base URL' ? ' (PAYMENTS_AUTH_URL unset: the base URL, as the client does)' : '';
  return {
    id: 'urls',
    title,
    verdict: 'ok',
    message: `API ${root}/pos/v1, tokens ${issuer}/oauth2/token${same}${plain}`,
  };
}

/** Check 6: the version the service's OpenAPI description states, against the SDK's. */
export function judgeVersion(
  served: unknown,
  sdkVersion: string,
): Pick<Check, 'verdict' | 'message' | 'fix'> {
  const release = `${API_RELEASE.major}.${API_RELEASE.minor}`;
  if (typeof served !== 'string' || served === '') {
    return {
      verdict: 'warn',
      message: 'the description states no info.version',
      fix: 'ask support which release this environment runs',
    };
  }
  if (served === sdkVersion) {
    return {
      verdict: 'ok',
      message: `${served}, the same as this SDK (a partner-payments mock of this release)`,
    };
  }
  const m = /^v?(\d+)(?:\.(\d+))?/.exec(served);
  if (!m)
    return {
      verdict: 'warn',
      message: `"${served}" is not a release number; not compared`,
      fix: 'ask support which release this environment runs',
    };
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  if (major === 0) {
    return {
      verdict: 'warn',
      message: `${served}: a partner-payments mock of another release than this SDK (${sdkVersion})`,
      fix: `run the mock of the same release: npm install partner-payments@${sdkVersion}`,
    };
  }
  if (major !== API_RELEASE.major) {
    return {
      verdict: 'fail',
      message: `API version ${served}; this SDK speaks /pos/v1, release ${release}`,
      fix: 'use the base URL of API v1, or a partner-payments release for that API version',
    };
  }
  if (minor < API_RELEASE.minor) {
    return {
      verdict: 'fail',
      message: `release ${served}, older than the ${release} this SDK was written for (webhooks, hosted checkout and launch links came in 1.2)`,
      fix: 'use an environment on release 1.2 or later, or ask support when it will be updated',
    };
  }
  if (minor > API_RELEASE.minor) {
    return {
      verdict: 'warn',
      message: `release ${served}, newer than the ${release} this SDK knows: new fields pass through untyped`,
      fix: 'update partner-payments (npm install partner-payments@latest)',
    };
  }
  return { verdict: 'ok', message: `release ${served}, the one this SDK (${sdkVersion}) was written for` };
}

/**
 * Check 7: the clock skew against the service's `Date` header. `sentAt`/`receivedAt` bracket the
 * answer; the header has whole seconds, so the uncertainty is half the round trip plus half a second.
 */
export function judgeSkew(
  dateHeader: string | undefined,
  sentAt: number,
  receivedAt: number,
  maxSkewMs: number,
): Pick<Check, 'verdict' | 'message' | 'fix'> & { skewMs?: number } {
  const serverMs = dateHeader ? Date.parse(dateHeader) : Number.NaN;
  if (!Number.isFinite(serverMs)) {
    return {
      verdict: 'warn',
      message: dateHeader ? 'the service sent an unreadable Date header' : 'the service sent no Date header',
      fix: 'compare this machine with a time server instead (timedatectl, w32tm /stripchart)',
    };
  }
  const local = (sentAt + receivedAt) / 2;
  const skewMs = serverMs + 500 - local; // the header truncates to the second: its middle
  const uncertainty = (receivedAt - sentAt) / 2 + 500;
  const size = duration(skewMs);
  const side = skewMs > 0 ? 'behind' : 'ahead of';
  if (Math.abs(skewMs) - uncertainty > maxSkewMs) {
    return {
      verdict: 'fail',
      skewMs,
      message: `this machine's clock is ${size} ${side} the service's (Date header, ±${duration(uncertainty)}; at most ${duration(maxSkewMs)} passes)`,
      fix: "sync this machine's clock (NTP: timedatectl set-ntp true); webhook maxAgeMs checks and logs compare with it",
    };
  }
  return {
    verdict: 'ok',
    skewMs,
    message:
      Math.abs(skewMs) <= uncertainty
        ? `in step with the service's (Date header, ±${duration(uncertainty)})`
        : `${duration(skewMs)} ${side} the service's (Date header, ±${duration(uncertainty)}), within the ${duration(maxSkewMs)} allowed`,
  };
}

const PLACEHOLDER = /^(<.*>|\$\{.*\}|x+|\.+|changeme|change_me|secret|your[_-].*|todo|tbd|null|undefined)$/i;

/** Check 8: the webhook signing secret's form (never its value). */
export function checkWebhookSecret(secret: Setting, clientSecret: string | undefined): Check {
  const title = 'webhook secret';
  const name = where(secret);
  const fail = (message: string, fix: string): Check => ({
    id: 'webhook-secret',
    title,
    verdict: 'fail',
    message,
    fix,
  });
  const value = secret.value;
  if (value === undefined) {
    return {
      id: 'webhook-secret',
      title,
      verdict: 'skip',
      message: 'not checked: set PAYMENTS_WEBHOOK_SECRET or pass --webhook-secret',
    };
  }
  const copy = 'copy the signing secret shown when the webhook endpoint was registered';
  if (value.trim() === '') return fail(`${name} is empty`, copy);
  if (value !== value.trim())
    return fail(`${name} has spaces or a line break around it`, `remove them (${copy})`);
  if (/^["'`].*["'`]$/.test(value))
    return fail(`${name} is wrapped in quotes`, 'remove the quotes (a .env file needs none)');
  if (value.startsWith('hmac-sha256=')) {
    return fail(
      `${name} is a signature (hmac-sha256=...), not the secret`,
      `${copy}; the X-Service-Signature header is computed from it`,
    );
  }
  if (clientSecret && value === clientSecret) {
    return fail(`${name} is the API client's secret, not the webhook endpoint's signing secret`, copy);
  }
  if (PLACEHOLDER.test(value)) return fail(`${name} is a placeholder`, copy);
  if (/[^\x21-\x7e]/.test(value))
    return fail(`${name} holds spaces or characters outside printable ASCII`, copy);
  if (value.length < 16) {
    return {
      id: 'webhook-secret',
      title,
      verdict: 'warn',
      message: `${name} is ${value.length} characters: short for a secret the service generates`,
      fix: copy,
    };
  }
  const form = value.startsWith('whsec_') ? ', whsec_ form' : '';
  return {
    id: 'webhook-secret',
    title,
    verdict: 'ok',
    message: `${value.length} characters, no spaces or quotes${form} (value not shown)`,
  };
}
