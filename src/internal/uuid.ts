// Identifier patterns without zod, so that the light webhooks entry can check them too.

/** 8-4-4-4-12 hexadecimal digits: the form of every identifier of the service. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The message of a malformed identifier, in a body or in a path argument. */
export const UUID_MESSAGE = 'must be a UUID (8-4-4-4-12 hexadecimal digits)';
