import { buildOpenApiDocument } from '@quire/api';
import { writeClient } from '../packages/client/src/generate-schema.ts';

// The api emits its document; the client is made from that file alone, so it never depends on the server's code.
for (const file of await writeClient(buildOpenApiDocument())) console.log(`wrote ${file}`);
