/** What every speech engine is, apart from which engines exist (speech.ts picks one). */

export interface TranscriptSegment {
  text: string;
  startMs: number;
  endMs: number;
}

export interface TranscribeOptions {
  signal?: AbortSignal;
  /** Called with how far into the audio the engine has got. */
  onProgress?: (doneMs: number) => void;
}

/** Speech to text: a 16 kHz mono 16-bit PCM WAV in, timed segments in order out. */
export interface SpeechEngine {
  readonly name: string;
  transcribe(wavPath: string, options?: TranscribeOptions): Promise<TranscriptSegment[]>;
}

export interface SpeechSettings {
  speechEngine: 'pocketsphinx' | 'none';
  pocketsphinxPath: string;
  pocketsphinxModelDir: string;
}

/** Hears nothing; chosen when no engine is configured, so callers can say so instead of pretending. */
export const noSpeechEngine: SpeechEngine = { name: 'none', transcribe: async () => [] };
