/**
 * Small msw handlers for testing the client core: a token endpoint that mints numbered tokens,
 * error envelopes, and scripted sequences of answers.
 */
import { HttpResponse, http, type RequestHandler } from 'msw';

/** The client id the harness's clients use. */
export const TEST_CLIENT_ID = 'test-client-id';
/** The client secret the harness's clients use; tests assert it never shows up anywhere. */
export const TEST_CLIENT_SECRET = 'sk_test_Zq8sSECRETvalue41x';
/** Every token {@link tokenEndpoint} mints starts with this, so leaks are easy to search for. */
export const TOKEN_PREFIX = 'at_live_TOKEN';

/** Options of {@link tokenEndpoint}. */
export interface TokenEndpointOptions {
  /** `expires_in` of every minted token. @default 3600 */
  expiresIn?: number;
  /** Called for each token request; return a Response to answer instead (an error). */
  override?: (mintNumber: number) => Response | undefined | Promise<Response | undefined>;
}

/**
 * `POST {authUrl}/oauth2/token`: checks the client credentials form and mints `at_live_TOKEN-1`, `-2`, ...
 * Answers 401 `invalid_client` to wrong credentials.
 */
export function tokenEndpoint(options: TokenEndpointOptions = {}): RequestHandler {
  let mints = 0;
  return http.post('*/oauth2/token', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    mints += 1;
    const custom = await options.override?.(mints);
    if (custom) return custom;
    if (form.get('client_secret') !== TEST_CLIENT_SECRET || form.get('grant_type') !== 'client_credentials') {
      return apiError(401, 'invalid_client', 'Unknown client or wrong secret.');
    }
    return HttpResponse.json({
      access_token: `${TOKEN_PREFIX}-${mints}`,
      expires_in: options.expiresIn ?? 3600,
      token_type: 'Bearer',
    });
  });
}

/** An error response in the service's envelope. */
export function apiError(
  status: number,
  code: string,
  message = code,
  init: { headers?: Record<string, string> } = {},
) {
  return HttpResponse.json(
    { error: code, message, request_id: `req_${status}_${code}` },
    { status, headers: init.headers },
  );
}

/**
 * A handler answering a sequence: the n-th matching request gets `answers[n]` (the last one repeats).
 */
export function sequence(
  method: 'get' | 'post',
  path: string,
  answers: ReadonlyArray<() => Response | Promise<Response>>,
): RequestHandler {
  let n = 0;
  return http[method](path, () => {
    const answer = answers[Math.min(n, answers.length - 1)]!;
    n += 1;
    return answer();
  });
}
