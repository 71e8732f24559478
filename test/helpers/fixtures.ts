/** Ids and bodies that pass the SDK's schemas, for core tests that go through real resources. */
import { HttpResponse } from 'msw';

export const ORDER_ID = '3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f';
export const PAYMENT_ID = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
export const LOCATION_ID = '11111111-2222-4333-8444-555555555555';

export const orderCreatedBody = {
  order_id: ORDER_ID,
  status: 'open',
  total_cents: 12_500,
  created_at: '2026-05-12T10:00:00Z',
};

export const paymentBody = {
  payment_id: PAYMENT_ID,
  order_id: ORDER_ID,
  status: 'pending',
  amount_cents: 12_500,
  method: 'card',
  created_at: '2026-05-12T10:00:01Z',
};

/** 201 with the created order. */
export const orderCreated = () => HttpResponse.json(orderCreatedBody, { status: 201 });
/** 201 with the pending payment. */
export const paymentCreated = () => HttpResponse.json(paymentBody, { status: 201 });

/** An open order as `GET /pos/v1/orders/{id}` answers it (no payments yet). */
export const openOrderBody = {
  order_id: ORDER_ID,
  location_id: LOCATION_ID,
  status: 'open',
  total_cents: 100,
  payments: [],
  created_at: '2026-05-12T10:00:00Z',
  updated_at: '2026-05-12T10:00:00Z',
};
