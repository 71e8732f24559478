// The read-only tools of `partner-payments mcp`: locations, orders (and find_orders over the orders
// this server knows, since the service has no search), payments, and waiting for a payment's result.
// Input and output schemas are the SDK's own zod schemas (src/schemas/zod/).
import * as z from 'zod';
import { uuid } from '../../../schemas/zod/fields.js';
import {
  LocationListParams,
  LocationPage,
  Location as LocationSchema,
} from '../../../schemas/zod/locations.js';
import { Order } from '../../../schemas/zod/orders.js';
import { Payment } from '../../../schemas/zod/payments.js';
import { readOnly, type Tool, tool } from './define.js';

const orderId = uuid.describe('The order id (a UUID), as create_order, charge or get_order returned it.');
const paymentId = uuid.describe('The payment id (a UUID), as charge or get_order returned it.');

const listLocations = tool({
  name: 'list_locations',
  description:
    'Lists the locations (stores) this API client may act for, one page at a time (limit 1 to 200, default 50; offset to page on; search: fuzzy match on the name). An order is created at a location with the "payments" feature (see get_location).',
  input: LocationListParams,
  output: LocationPage,
  annotations: readOnly('List locations'),
  run: async ({ client, signal }, args) => {
    const page = await client.locations.list(args, { signal });
    return { items: page.items, total: page.total, limit: page.limit, offset: page.offset };
  },
});

const getLocation = tool({
  name: 'get_location',
  description:
    'Reads one location, with its features (an order can be paid only at a location whose features include "payments").',
  input: z.strictObject({ location_id: uuid.describe('The location id (a UUID), from list_locations.') }),
  output: LocationSchema,
  annotations: readOnly('Get a location'),
  run: ({ client, signal }, args) => client.locations.get(args.location_id, { signal }),
});

const getOrder = tool({
  name: 'get_order',
  description:
    "Reads one order with its status, total and every payment made on it (each payment's id, status and amount).",
  input: z.strictObject({ order_id: orderId }),
  output: Order,
  annotations: readOnly('Get an order'),
  run: async ({ client, known, signal }, args) => {
    const order = await client.orders.get(args.order_id, { signal });
    known.add(order.order_id);
    return order;
  },
});

/** How many known orders find_orders reads at most (each is one request to the service). */
const FIND_LIMIT = 100;

const findOrders = tool({
  name: 'find_orders',
  description: `Finds orders by their external_reference (the partner's invoice or PO number). The service has NO search: this tool reads only the orders this server has created, charged or read since it started (the newest ${FIND_LIMIT}), one request each, and returns those whose external_reference matches exactly. An order made elsewhere is not found: ask for its order id and use get_order.`,
  input: z.strictObject({
    external_reference: z.string().min(1, { error: 'must not be empty' }).describe('The exact reference.'),
  }),
  output: z.object({
    orders: z.array(Order),
    searched: z.int().describe('How many orders this server knew and read.'),
    note: z.string(),
  }),
  annotations: readOnly('Find orders by reference (among the orders this server knows)'),
  run: async ({ client, known, signal }, args) => {
    const ids = known.list().slice(0, FIND_LIMIT);
    const orders = [];
    for (const id of ids) {
      const order = await client.orders.get(id, { signal });
      if (order.external_reference === args.external_reference) orders.push(order);
    }
    return {
      orders,
      searched: ids.length,
      note: `The service has no search: only the ${ids.length} order(s) this server created, charged or read since it started were searched. An order made elsewhere needs its order id (get_order).`,
    };
  },
});

const getPayment = tool({
  name: 'get_payment',
  description:
    'Reads one payment: its status (pending, approved, declined, settled, voided, refunded, ...), amount and processor reference.',
  input: z.strictObject({ order_id: orderId, payment_id: paymentId }),
  output: Payment,
  annotations: readOnly('Get a payment'),
  run: async ({ client, known, signal }, args) => {
    known.add(args.order_id);
    return client.payments.get(args.order_id, args.payment_id, { signal });
  },
});

const awaitPaymentResult = tool({
  name: 'await_payment_result',
  description:
    'Waits until a payment leaves "pending" (approved, declined, ...), or reaches one of the statuses in `until` (e.g. ["settled"] before a refund), reading it every 3 seconds, and returns it. Past max_wait_seconds it fails with result_timeout: call it again later.',
  input: z.strictObject({
    order_id: orderId,
    payment_id: paymentId,
    until: z
      .array(z.string())
      .min(1)
      .optional()
      .describe('The statuses to wait for (default: any status but pending).'),
    max_wait_seconds: z
      .int()
      .min(1)
      .max(55)
      .optional()
      .describe('How long to wait in all, 1 to 55 seconds (default 25).'),
  }),
  output: Payment,
  annotations: readOnly('Wait for a payment result'),
  run: async ({ client, known, signal }, args) => {
    known.add(args.order_id);
    return client.awaitPaymentResult(args.order_id, args.payment_id, {
      maxWaitMs: (args.max_wait_seconds ?? 25) * 1000,
      ...(args.until ? { until: args.until } : {}),
      ...(signal ? { signal } : {}),
    });
  },
});

/** The read-only tools this file defines (tools/list shows them in the order of ./list.ts). */
export const READ_TOOLS: Tool[] = [
  listLocations,
  getLocation,
  getOrder,
  findOrders,
  getPayment,
  awaitPaymentResult,
];
