// Runs once before the test files: installs the engines the fleet tests start, when missing.
import { ensureEngines } from './engines.js';

export default function setup(): void {
  ensureEngines();
}
