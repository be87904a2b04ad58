import type { Config } from '@quire/config';
import type { ContentType } from '@quire/extract';
import type { SandboxLimits } from '../sandbox/run-sandboxed.ts';

const MB = 1024 * 1024;

/**
 * Time scales with size for documents and images (a 2 MB PDF that needs ten minutes is a bomb); audio and
 * video get the whole configured budget because speech-to-text runs near real time.
 */
export function budgetFor(contentType: ContentType, bytes: number, config: Config): SandboxLimits {
  const max = config.EXTRACT_TIMEOUT_MS;
  const timeoutMs =
    contentType === 'audio' || contentType === 'video' ? max : Math.min(max, 60_000 + Math.ceil(bytes / MB) * 5_000);
  return { timeoutMs, maxMemoryMb: config.EXTRACT_MAX_MEMORY_MB };
}
