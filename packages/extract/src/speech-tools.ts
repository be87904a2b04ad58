// What the worker needs to transcribe a long recording in chunks outside the sandbox: ffmpeg and ffprobe
// (external binaries, killed on timeout), the speech engine (an external binary too) and the pure chunk maths.
export { createMediaTools, SPEECH_SAMPLE_RATE, type MediaProbe, type MediaTools, type Silence } from './ffmpeg.ts';
export { createSpeechEngine } from './speech.ts';
export type { SpeechEngine, TranscriptSegment } from './speech-engine.ts';
export {
  CHUNK_SILENCE,
  joinChunkTranscripts,
  pcmRange,
  planChunks,
  wavHeader,
  type ChunkSpan,
  type ChunkTranscript,
  type MissingStretch,
} from './speech-chunks.ts';
