// List locations: one page, a search, and every location across pages.
// Run: npx tsx examples/list-locations.ts
import { type ExampleContext, runIfMain } from './support.js';

export async function listLocations({ client, log }: ExampleContext) {
  const first = await client.locations.list({ limit: 5 });
  log(`${first.total} locations; the first ${first.items.length}:`);
  for (const location of first.items)
    log(`  ${location.name} (${location.timezone}, ${location.active ? 'active' : 'inactive'})`);

  // Every location of every page, fetched lazily 200 at a time.
  let count = 0;
  let accepting = 0;
  for await (const location of client.locations.list({ limit: 200 })) {
    count++;
    if (location.active) accepting++;
  }
  log(`iterated ${count} locations, ${accepting} active`);

  const detail = await client.locations.get(first.items[0]!.location_id);
  log(`${detail.name}: features ${detail.features.join(', ')}`);
  return { total: first.total, iterated: count, detail };
}

runIfMain(import.meta.url, listLocations);
