import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * A real headless Chromium from the `@sparticuz/chromium` package (no system browser needed). The
 * flags keep it off the network: the mock and the pages it serves are all on loopback.
 */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: [
      ...chromium.args,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
    headless: true,
    defaultViewport: { width: 1280, height: 900 },
  });
}
