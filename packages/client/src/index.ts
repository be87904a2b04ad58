import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { components, paths } from './schema.ts';

export type { components, paths };
export type Schemas = components['schemas'];
export type Material = Schemas['Material'];
export type MaterialEvent =
  | { event: 'status'; data: Schemas['MaterialStatusEvent'] }
  | { event: 'progress'; data: Schemas['MaterialProgressEvent'] };

export interface QuireClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the api answers, e.g. http://localhost:3000 */
  baseUrl: string;
  apiKey: string;
}

export type QuireClient = Client<paths> & {
  /** Follows `GET /api/v1/materials/{id}/events` until the material settles and the server closes the stream. */
  materialEvents(id: string, init?: { signal?: AbortSignal }): AsyncGenerator<MaterialEvent>;
};

/** A typed client of the quire api: every path, body and answer is checked against the OpenAPI document's types. */
export function createQuireClient({ baseUrl, apiKey, ...options }: QuireClientOptions): QuireClient {
  const client = createClient<paths>({ ...options, baseUrl, headers: { ...options.headers, 'x-api-key': apiKey } });
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function* materialEvents(id: string, init: { signal?: AbortSignal } = {}): AsyncGenerator<MaterialEvent> {
    const res = await fetchImpl(
      new Request(`${baseUrl}/api/v1/materials/${encodeURIComponent(id)}/events`, {
        headers: { 'x-api-key': apiKey, accept: 'text/event-stream' },
        signal: init.signal,
      }),
    );
    if (!res.ok || !res.body)
      throw new Error(`GET /api/v1/materials/${id}/events answered ${res.status}: ${await res.text()}`);
    const messages = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    for await (const message of messages) {
      if (message.event === 'status' || message.event === 'progress')
        yield { event: message.event, data: JSON.parse(message.data) };
    }
  }

  return Object.assign(client, { materialEvents });
}
