// `--confirm-above-cents` where the person cannot answer (api.md 24), in process. Over `--http` the
// server is stateless (a new MCP server per request), so it cannot ask the person back within a
// call, even for a client that declares elicitation: a charge above the threshold fails closed
// (confirmation_unavailable) and sends nothing, while one at the threshold is sent (the control).
// And a question nobody answers (over an in-memory transport, with a short wait): not_confirmed.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Guard } from '../../src/cli/mcp/guard.js';
import { serveHttp } from '../../src/cli/mcp/http.js';
import { fileLedger } from '../../src/cli/mcp/ledger/files.js';
import type { Shared } from '../../src/cli/mcp/server.js';
import { createServer } from '../../src/cli/mcp/server.js';
import { KnownOrders } from '../../src/cli/mcp/tools/define.js';
import { PaymentsClient } from '../../src/index.js';
import { SecretRegistry } from '../../src/internal/redact.js';
import { body, connectHttp, type Recorded, serveRecording } from './helpers.js';

let served: Recorded;
let http: Server;
let shared: Shared;
const state = mkdtempSync(join(tmpdir(), 'mcp-agent-http-'));
beforeAll(async () => {
  served = await serveRecording();
  const client = new PaymentsClient({
    clientId: served.mock.credentials.clientId,
    clientSecret: served.mock.credentials.clientSecret,
    baseUrl: served.url,
    authUrl: served.url,
  });
  const guard = new Guard(
    await fileLedger(state),
    {
      budgetCents: undefined,
      refundBudgetCents: undefined,
      budgetWindowMs: 24 * 3_600_000,
      budgetWindow: '24h',
      confirmAboveCents: 1_000,
      duplicateWindowMs: 0,
      duplicateWindow: '0',
    },
    client,
  );
  shared = {
    client,
    secrets: new SecretRegistry(),
    safety: { allowWrites: true, maxAmountCents: undefined },
    known: new KnownOrders(),
    guard,
  };
  http = await serveHttp(shared, 0, () => {});
});
afterAll(async () => {
  await new Promise((done) => http?.close(done));
  await served?.close();
  rmSync(state, { recursive: true, force: true });
});

it('a charge above --confirm-above-cents over --http is confirmation_unavailable, even for a client that can elicit', async () => {
  const { port } = http.address() as { port: number };
  let asked = 0;
  const session = await connectHttp(`http://127.0.0.1:${port}/mcp`, {
    elicit: () => {
      asked++;
      return { action: 'accept', content: { confirm: true } };
    },
  });
  try {
    const location = served.mock.fixtures.partners[0]!.locations.payments;
    const posts = () => served.log.filter((l) => l.startsWith('POST /pos/v1')).length;
    const before = posts();
    const over = await session.call('charge', {
      idempotency_key: 'http-over',
      order: { location_id: location, total_cents: 1_001, external_reference: 'http-over' },
    });
    expect(body(over)).toMatchObject({ error: 'confirmation_unavailable' });
    expect(body(over).message).toContain('--confirm-above-cents 1000');
    expect(posts()).toBe(before);
    expect(asked).toBe(0);
    // Control: at the threshold nothing needs asking, and the charge is sent.
    const at = await session.call('charge', {
      idempotency_key: 'http-at',
      order: { location_id: location, total_cents: 1_000, external_reference: 'http-at' },
    });
    expect(at.isError, JSON.stringify(at)).toBeFalsy();
    expect(posts()).toBe(before + 2);
  } finally {
    await session.close();
  }
});

it('a confirmation nobody answers is not_confirmed once the wait is over, and nothing is sent', async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = createServer({ ...shared, confirmWaitMs: 300 });
  await mcp.connect(serverSide);
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked++;
    return new Promise(() => {}); // the person never answers
  });
  await client.connect(clientSide);
  try {
    const posts = () => served.log.filter((l) => l.startsWith('POST /pos/v1')).length;
    const before = posts();
    const location = served.mock.fixtures.partners[0]!.locations.payments;
    const result = (await client.callTool({
      name: 'charge',
      arguments: {
        idempotency_key: 'nobody-answers',
        order: { location_id: location, total_cents: 2_000, external_reference: 'nobody-answers' },
      },
    })) as CallToolResult;
    expect(asked).toBe(1);
    expect(body(result)).toMatchObject({ error: 'not_confirmed' });
    expect(posts()).toBe(before);
  } finally {
    await client.close();
    await mcp.close();
  }
});
