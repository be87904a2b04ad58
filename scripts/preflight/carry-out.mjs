// Carries out a plan from plan.mjs: says what it is about to do, then does it, then prints what is still
// wrong. The installers run with this terminal, so that sudo can ask for a password and their progress shows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { NPM_CI_ARGS } from './plan.mjs';

/**
 * @param {import('./plan.mjs').Plan} plan
 * @param {{ root: string, mode: 'start' | 'test', env: Record<string, string | undefined> }} where
 * @returns {number} the exit code
 */
export function carryOut(plan, { root, mode, env }) {
  const say = (line) => process.stderr.write(`[npm ${mode}] ${line}\n`);
  const problems = [...plan.problems];
  const warnings = [...plan.warnings];
  // With something already known to stop it, nothing is installed: the user fixes that first.
  for (const step of problems.length ? [] : plan.steps) {
    say(step.announce);
    const [command, ...args] = step.kind === 'npm-ci' ? npmCi(env) : ['bash', ...step.command];
    const result = spawnSync(command, args, {
      cwd: root,
      // swagger-ui-dist's install script would otherwise report the install to its vendor.
      env: { ...env, SCARF_ANALYTICS: 'false' },
      stdio: 'inherit',
    });
    if (result.status === 0) continue;
    if (result.error) say(`${command}: ${result.error.message}`);
    problems.push(...step.ifFailed.problems);
    warnings.push(...step.ifFailed.warnings);
    if (step.ifFailed.problems.length) break;
  }
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (!problems.length) return 0;
  process.stderr.write(
    `${mode === 'start' ? 'quire cannot start' : 'The tests cannot run'}:\n${problems.map((p) => `  - ${p}\n`).join('')}`,
  );
  return 1;
}

/** The npm that runs this script (under `npm start`, npm_execpath names it), else the one on PATH. */
function npmCi(env) {
  const npmCli = env.npm_execpath;
  return npmCli && path.basename(npmCli) === 'npm-cli.js'
    ? [process.execPath, npmCli, ...NPM_CI_ARGS]
    : ['npm', ...NPM_CI_ARGS];
}
