import { pocketsphinxEngine } from './pocketsphinx.ts';
import { noSpeechEngine, type SpeechEngine, type SpeechSettings } from './speech-engine.ts';

export function createSpeechEngine(settings: SpeechSettings): SpeechEngine {
  switch (settings.speechEngine) {
    case 'pocketsphinx':
      return pocketsphinxEngine({ binaryPath: settings.pocketsphinxPath, modelDir: settings.pocketsphinxModelDir });
    case 'none':
      return noSpeechEngine;
  }
}
