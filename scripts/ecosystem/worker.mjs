// The Workers entry (a module worker): POST the scenario's input, get its result.
import { runScenario } from './scenario.mjs';

export default {
  async fetch(request) {
    return Response.json(await runScenario(await request.json()));
  },
};
