// The Vercel Edge entry: edge-runtime runs a script with a fetch event listener, as Vercel does.
import { runScenario } from './scenario.mjs';

self.addEventListener('fetch', (event) => {
  event.respondWith(
    event.request
      .json()
      .then(runScenario)
      .then((result) => Response.json(result)),
  );
});
