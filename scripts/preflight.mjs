// Runs before `npm start` and `npm test` with plain Node (no dependencies, no TypeScript), so that a fresh
// clone sets itself up instead of failing with `tsx: not found`: the system packages through
// scripts/setup-system.sh, the dependencies through `npm ci`. QUIRE_NO_INSTALL=1 only says what is missing.
//   node scripts/preflight.mjs start   what `npm start` needs
//   node scripts/preflight.mjs test    what `npm test` needs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { carryOut } from './preflight/carry-out.mjs';
import { inspectMachine } from './preflight/inspect.mjs';
import { planPreflight } from './preflight/plan.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] === 'test' ? 'test' : 'start';

let facts;
try {
  facts = inspectMachine(root, mode, process.env);
} catch (error) {
  process.stderr.write(`The set-up of npm ${mode} could not be checked: ${error.message}\n`);
  process.exit(1);
}
process.exitCode = carryOut(planPreflight(facts), { root, mode, env: process.env });
