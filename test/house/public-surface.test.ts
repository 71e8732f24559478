// The main entry lists its error classes by name (src/index.ts), so that the init object the SDK
// builds its API errors from stays out of it. A class added to the errors module must still reach
// partners: api.md section 5 has every error the SDK throws exported from `partner-payments`.
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/core/errors/api-errors.js';
import * as main from '../../src/index.js';

describe('the main entry', () => {
  it('exports every error class of the errors module, as the same class', () => {
    const classes = Object.entries(errors).filter(([, value]) => typeof value === 'function');
    // 24 today, PaymentResultTimeoutError (the alias of ResultTimeoutError) among them.
    expect(classes.length).toBeGreaterThanOrEqual(24);
    const exported = main as Record<string, unknown>;
    for (const [name, value] of classes) expect(exported[name], name).toBe(value);
  });
});
