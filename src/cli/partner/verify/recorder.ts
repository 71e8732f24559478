// The fetch verify gives the SDK's client: it sends nothing of its own, it keeps a copy of every
// answer the client got (status, headers, body), so that a check can judge the exact answer (a
// missing field, an error envelope the SDK reads leniently), and registers the secrets it sees.
import type { Scrubber } from '../output.js';

/** One request of the client and the answer it got, as it was on the wire. */
export interface Exchange {
  method: string;
  /** The path with its query (the host is the client's). */
  path: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Fields whose values are secrets: registered with the scrubber as soon as they are seen. */
const SECRET_FIELDS = [
  'access_token',
  'hosted_checkout_url',
  'launch_token',
  'launch_url',
  'session_token',
  'signing_secret',
];

/** Keeps every exchange of the clients built with its `fetch`. */
export class Recorder {
  readonly #log: Exchange[] = [];

  constructor(private readonly scrubber: Scrubber) {}

  /** A fetch for `new PaymentsClient({ fetch })`: the global fetch, with a copy of each answer kept. */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const text = await response.clone().text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    this.#remember(json);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    this.#log.push({
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      path: url.pathname + url.search,
      status: response.status,
      headers,
      text,
      json,
    });
    return response;
  };

  /** A position in the log: {@link since} gives what came after it. */
  mark(): number {
    return this.#log.length;
  }

  since(mark: number): Exchange[] {
    return this.#log.slice(mark);
  }

  /** The last exchange after `mark` (the final attempt of a call). */
  last(mark: number): Exchange | undefined {
    return this.#log.length > mark ? this.#log[this.#log.length - 1] : undefined;
  }

  /** The first exchange matching `test`, anywhere in the log. */
  find(test: (e: Exchange) => boolean): Exchange | undefined {
    return this.#log.find(test);
  }

  #remember(json: unknown): void {
    if (typeof json !== 'object' || json === null) return;
    for (const field of SECRET_FIELDS) {
      const value = (json as Record<string, unknown>)[field];
      if (typeof value === 'string') {
        this.scrubber.add(value);
        // The token inside a hosted checkout or launch URL, on its own too.
        if (URL.canParse(value))
          for (const part of new URL(value).searchParams.values()) this.scrubber.add(part);
      }
    }
  }
}
