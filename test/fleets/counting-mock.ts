// The mock service on loopback behind a counter: token requests, 429s, and when each API call arrived;
// a test's own hook (`door`) sees each request before the mock does.
import { PaymentsClient } from '../../src/index.js';
import type { MockService, MockServiceOptions } from '../../src/testing/index.js';
import { serveMock } from '../helpers/loopback-mock.js';

export interface CountingMock {
  mock: MockService;
  baseUrl: string;
  counts: { token: number; status429: number; api: number };
  /** Arrival times (ms) of the API calls the mock answered with success. */
  arrivals: number[];
  /**
   * Runs on each request before the mock sees it (a test's fault schedule: `mock.failNext` for this
   * very request, or killing a worker mid-call). When it returns a response, that is the answer and
   * the mock does not see the request (the door may have passed it to `mock.fetch` itself, to kill
   * the worker once the mock committed it). Unset by default.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a door written as `async () => {}` answers nothing.
  door: ((request: Request) => void | Response | Promise<void | Response>) | undefined;
  /**
   * A machine client of the first partner (a fresh bucket and token per test) and an order it can read
   * (`orders` of them, of `totalCents` each, when asked: `orderIds`).
   */
  fleetClient(
    tier?: 'low' | 'standard' | 'high',
    extra?: { orders?: number; totalCents?: number },
  ): Promise<{
    options: { clientId: string; clientSecret: string; baseUrl: string; authUrl: string; maxRetries: number };
    orderId: string;
    orderIds: string[];
    /** A location of the partner, for orders the fleet creates itself. */
    locationId: string;
  }>;
  close(): Promise<void>;
}

export async function startCountingMock(options: MockServiceOptions = {}): Promise<CountingMock> {
  const counts = { token: 0, status429: 0, api: 0 };
  const arrivals: number[] = [];
  const hooks: Pick<CountingMock, 'door'> = { door: undefined };
  const served = await serveMock({
    ...options,
    front: async (request, mock) => {
      const isToken = new URL(request.url).pathname.endsWith('/oauth2/token');
      if (isToken) counts.token++;
      else counts.api++;
      const arrived = Date.now();
      const response = (await hooks.door?.(request)) ?? (await mock.fetch(request));
      if (response.status === 429) counts.status429++;
      else if (!isToken && response.ok) arrivals.push(arrived);
      return response;
    },
  });
  const { mock, server } = served;
  return {
    mock,
    baseUrl: server.url,
    counts,
    arrivals,
    get door() {
      return hooks.door;
    },
    set door(door) {
      hooks.door = door;
    },
    async fleetClient(tier = 'high', extra = {}) {
      const partnerId = mock.fixtures.partners[0]!.partnerId;
      const [locationId] = mock.seedLocations(partnerId, 1);
      const setup = mock.addClient({ partnerId });
      // The order is created in-process (mock.fetch), so the counters see the fleet's requests only.
      const local = new PaymentsClient({
        ...setup,
        baseUrl: 'https://api.payments.test',
        authUrl: 'https://api.payments.test',
        fetch: (input, init) => mock.fetch(new Request(input, init)),
      });
      const orderIds: string[] = [];
      for (let i = 0; i < (extra.orders ?? 1); i++) {
        const order = await local.orders.create({
          location_id: locationId!,
          total_cents: extra.totalCents ?? 1000,
        });
        orderIds.push(order.order_id);
      }
      const fleet = mock.addClient({ partnerId, tier });
      return {
        options: {
          clientId: fleet.clientId,
          clientSecret: fleet.clientSecret,
          baseUrl: server.url,
          authUrl: server.url,
          maxRetries: 0,
        },
        orderId: orderIds[0]!,
        orderIds,
        locationId: locationId!,
      };
    },
    close: () => served.stop(),
  };
}

/** Resets the counters between the steps of a test. */
export function resetCounts(m: CountingMock): void {
  m.counts.token = 0;
  m.counts.status429 = 0;
  m.counts.api = 0;
  m.arrivals.length = 0;
}
