// The zod schema and type of the token endpoint's answer (spec 5.3), read leniently.
import * as z from 'zod';

/** The token endpoint's answer (spec 5.3), read leniently. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional(),
  token_type: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
