import { writeClientSchema } from '../packages/client/src/generate-schema.ts';

console.log(`wrote ${await writeClientSchema()}`);
