// Open a point-of-sale session for a user with a launch link (single use, 10 minutes).
// Run: npx tsx examples/launch-link.ts
import { type ExampleContext, runIfMain } from './support.js';

export async function launchLink({ client, locationId, log }: ExampleContext) {
  // Create the link when the user clicks "open POS", not ahead of time: it lives 10 minutes.
  const link = await client.launchTokens.create({ location_id: locationId, role_slug: 'location_manager' });
  log(`launch link for location ${link.location_id} as ${link.role_slug}, expires ${link.expires_at}`);
  // link.launch_url goes to the user's browser; it is a credential, so it is not printed here.

  // What the POS front end does with the token: exchange it for a session (no authentication).
  const session = await client.launchTokens.exchange(link.launch_token);
  log(
    `POS session for user ${session.user_id} (${session.role_slug}), provisioned now: ${session.provisioned}`,
  );

  // A launch token works once.
  const again = await client.launchTokens.exchange(link.launch_token).catch((error: Error) => error);
  log(`second exchange of the same token: ${again instanceof Error ? again.name : 'accepted?!'}`);
  return { link, session, again };
}

runIfMain(import.meta.url, launchLink);
