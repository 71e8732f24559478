// Node, Bun and Deno run this file: the scenario's input as JSON in argv[2] (Deno: Deno.args[0]),
// the result as JSON on stdout.
import { runScenario } from './scenario.mjs';

const arg = globalThis.Deno ? globalThis.Deno.args[0] : globalThis.process.argv[2];
const result = await runScenario(JSON.parse(arg));
console.log(JSON.stringify(result));
