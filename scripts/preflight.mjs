// Runs before `npm start` and `npm test` with plain Node (no dependencies, no TypeScript), so that a fresh
// clone is told exactly what to run instead of failing with `tsx: not found` or a stack trace.
//   node scripts/preflight.mjs start   what `npm start` needs
//   node scripts/preflight.mjs test    what `npm test` needs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] === 'test' ? 'test' : 'start';
// npm runs scripts from the package root, so this is the command as the user types it there.
const setupCommand = 'scripts/setup-system.sh';
const env = process.env;

const problems = [];
const warnings = [];

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  problems.push(
    `quire needs Node 20.19 or newer; this is ${process.version}. Install a current Node (https://nodejs.org), then run: npm ci`,
  );
}

// `.package-lock.json` is what `npm ci`/`npm install` leave behind when they finish.
const installed = ['node_modules/.package-lock.json', 'node_modules/.bin/tsx'].every((file) =>
  fs.existsSync(path.join(root, file)),
);
if (!installed) problems.push(`The dependencies are not installed. Run: npm ci`);

const onPath = (command) =>
  command.includes('/')
    ? isExecutable(command)
    : (env.PATH ?? '').split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, command)));

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

if (mode === 'start') {
  if (!env.REDIS_URL && !onPath('redis-server')) {
    problems.push(`redis-server is not installed. Run: ${setupCommand} (or set REDIS_URL to an existing Redis).`);
  }
  const tools = [env.FFMPEG_PATH || 'ffmpeg', env.FFPROBE_PATH || 'ffprobe'];
  if (env.SPEECH_ENGINE !== 'none') tools.push(env.POCKETSPHINX_PATH || 'pocketsphinx_continuous');
  const absent = tools.filter((command) => !onPath(command));
  if (absent.length) {
    warnings.push(
      `${absent.join(', ')} not found, so audio and video materials will end in error. Run: ${setupCommand}`,
    );
  }
} else {
  const check = spawnSync('bash', [path.join(root, 'scripts', 'setup-system.sh'), '--check'], { encoding: 'utf8' });
  if (check.status !== 0) {
    const missing = check.error
      ? `bash is needed to check them: ${check.error.message}`
      : check.stdout.trim() || check.stderr.trim();
    problems.push(`The tests need system packages that are missing (${missing}). Run: ${setupCommand}`);
  }
}

for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
if (problems.length) {
  process.stderr.write(
    `${mode === 'start' ? 'quire cannot start' : 'The tests cannot run'}:\n${problems.map((p) => `  - ${p}\n`).join('')}`,
  );
  process.exit(1);
}
