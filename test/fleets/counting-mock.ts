// The mock service on loopback behind a counter: token requests, 429s, and when each API call arrived.
import { PaymentsClient } from '../../src/index.js';
import {
  createMockService,
  type MockService,
  type MockServiceOptions,
  serveFetch,
} from '../../src/testing/index.js';

export interface CountingMock {
  mock: MockService;
  baseUrl: string;
  counts: { token: number; status429: number; api: number };
  /** Arrival times (ms) of the API calls the mock answered with success. */
  arrivals: number[];
  /** A machine client of the first partner (a fresh bucket and token per test) and an order it can read. */
  fleetClient(tier?: 'low' | 'standard' | 'high'): Promise<{
    options: { clientId: string; clientSecret: string; baseUrl: string; authUrl: string; maxRetries: number };
    orderId: string;
  }>;
  close(): Promise<void>;
}

export async function startCountingMock(options: MockServiceOptions = {}): Promise<CountingMock> {
  const mock = createMockService(options);
  const counts = { token: 0, status429: 0, api: 0 };
  const arrivals: number[] = [];
  const server = await serveFetch(async (request) => {
    const isToken = new URL(request.url).pathname.endsWith('/oauth2/token');
    if (isToken) counts.token++;
    else counts.api++;
    const arrived = Date.now();
    const response = await mock.fetch(request);
    if (response.status === 429) counts.status429++;
    else if (!isToken && response.ok) arrivals.push(arrived);
    return response;
  });
  return {
    mock,
    baseUrl: server.url,
    counts,
    arrivals,
    async fleetClient(tier = 'high') {
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
      const order = await local.orders.create({ location_id: locationId!, total_cents: 1000 });
      const fleet = mock.addClient({ partnerId, tier });
      return {
        options: {
          clientId: fleet.clientId,
          clientSecret: fleet.clientSecret,
          baseUrl: server.url,
          authUrl: server.url,
          maxRetries: 0,
        },
        orderId: order.order_id,
      };
    },
    async close() {
      await server.close();
      mock.close();
    },
  };
}

/** Resets the counters between the steps of a test. */
export function resetCounts(m: CountingMock): void {
  m.counts.token = 0;
  m.counts.status429 = 0;
  m.counts.api = 0;
  m.arrivals.length = 0;
}
