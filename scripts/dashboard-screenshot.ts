// Regenerates docs/images/mock-dashboard.png: a mock filled by the browser tests' scene, its
// dashboard opened in headless Chromium. Run: npm run docs:screenshot
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createMockService } from '../src/testing/index.js';
import { launchBrowser } from '../test/mock-product/browser.js';
import { buildScene } from '../test/mock-product/scene.js';

const receiver = createServer((req, res) => {
  req.resume();
  res.writeHead(req.url === '/hooks' ? 200 : 503).end();
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as AddressInfo;
const mock = createMockService({ clock: { start: '2026-05-12T09:30:00Z' } });
const server = await mock.listen();
await buildScene(mock, server, `http://127.0.0.1:${port}/hooks`, `http://127.0.0.1:${port}/down`);
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1360, height: 1000, deviceScaleFactor: 1 });
  await page.goto(`${server.baseUrl}/_mock/`, { waitUntil: 'load' });
  const file = join(import.meta.dirname, '..', 'docs', 'images', 'mock-dashboard.png');
  await page.screenshot({ path: file, fullPage: true });
  console.log(`wrote ${file}`);
} finally {
  await browser.close();
  await server.close();
  receiver.close();
}
