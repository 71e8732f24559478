import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a loopback webhook receiver saw. */
export interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A webhook receiver on 127.0.0.1 that answers with `status()` (after `delayMs` when set). */
export async function startReceiver() {
  const received: Received[] = [];
  const control = { status: 200, delayMs: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      const answer = () => {
        res.writeHead(control.status, { 'content-type': 'text/plain' });
        res.end('ok');
      };
      if (control.delayMs > 0) setTimeout(answer, control.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    control,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
