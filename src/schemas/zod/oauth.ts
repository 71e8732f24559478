// The zod schema of the token endpoint's answer (spec 5.3), read leniently: the source of its type
// (src/schemas/oauth.ts) and of the check the client runs (src/schemas/compiled/oauth.ts).
import * as z from 'zod';

/** The token endpoint's answer (spec 5.3), read leniently. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional(),
  token_type: z.string().optional(),
});
