/**
 * Writes the "## Fault table" section of docs/retries.md from the table the fault tests run, so
 * the document cannot drift from them. Run: npm run gen:fault-table
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { renderFaultTable } from '../test/faults/fault-table.js';

const HEADING = '## Fault table';

const section = `${HEADING}

What each call does when one attempt meets a fault, measured against the shipped mock
(\`partner-payments/testing\`) on its loopback server, with the mock's own faults (\`mock.failNext\`;
[\`test/faults/\`](https://github.com/partner-payments/partner-payments-node/tree/main/test/faults/)). In every row the fault hits the first attempt and later attempts succeed; the
client has \`maxRetries: 2\`. "Service acted?" says whether the mock created the order, payment or
refund before misbehaving (an after-commit fault, \`phase: 'after'\`: the worst case for a retry).
Every cell is a test in [\`test/faults/fault-table.test.ts\`](https://github.com/partner-payments/partner-payments-node/blob/main/test/faults/fault-table.test.ts), which also asserts the side effects in
the mock's records: never more than one order, payment, refund or void per call (orders are
de-duplicated by \`Idempotency-Key\`, and every attempt of an \`orders.create\` carries the same key).
The refused connection is the only fault the mock cannot play: the client's dispatcher sends that
attempt to a closed port.

${renderFaultTable()}

- The table shows the call path's own policy, as with \`reconcile: 'off'\` ([\`test/faults/\`](https://github.com/partner-payments/partner-payments-node/tree/main/test/faults/) runs it so).
  With the default \`reconcile: 'auto'\`, a payment's "outcome unknown" cell becomes the reconciled
  outcome: the payment returned, or sent once more when it did not land ([\`test/intents/\`](https://github.com/partner-payments/partner-payments-node/tree/main/test/intents/)).
- "outcome unknown" means \`error.outcomeUnknown === true\`: the payment or refund may exist. Rerun
  with the same idempotency key (or \`client.recover()\`) before trying again. For \`orders.create\`, the order may
  exist: create it again with \`{ idempotencyKey: error.idempotencyKey }\` to get it back.
- When the fault persists on every attempt, each "retried" cell ends with the fault's error class after
  3 attempts (a \`401 token_expired\` after one new token and one replay) and still at most one side
  effect (same test file). The error has \`outcomeUnknown: false\`, except for \`orders.create\` when
  the service may have acted: then \`outcomeUnknown: true\` and \`error.idempotencyKey\` gets the order
  back without creating a second one.
- A soak test ([\`test/faults/soak.test.ts\`](https://github.com/partner-payments/partner-payments-node/blob/main/test/faults/soak.test.ts)) runs 5,000 mixed calls at concurrency 50 with 10% random
  faults from this table and checks that every call settles with a \`PaymentsError\` or a result, that
  no rejection goes unhandled, and that no call has a duplicated side effect.
`;

const file = new URL('../docs/retries.md', import.meta.url);
const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
const start = current.indexOf(`\n${HEADING}\n`);
let next: string;
if (current.startsWith(`${HEADING}\n`)) next = section;
else if (start === -1) next = current ? `${current.trimEnd()}\n\n${section}` : section;
else {
  const after = current.indexOf('\n## ', start + HEADING.length + 1);
  const rest = after === -1 ? '' : `\n${current.slice(after + 1)}`;
  next = `${current.slice(0, start + 1)}${section}${rest}`;
}
writeFileSync(file, next);
console.log(`wrote the fault table into ${file.pathname}`);
