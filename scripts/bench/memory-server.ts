import fs from 'node:fs';
import express from 'express';

/**
 * The api benchmark's yardstick, run as its own process: a minimal Express app answering the materials
 * routes with bodies read once from the JSON file named on the command line, serialized per response as
 * the api does (`res.json`). It prints its port when it listens.
 */
const bodies = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as {
  list: unknown;
  search: unknown;
  materials: Record<string, unknown>;
};

const app = express();
app.get('/api/v1/materials', (req, res) => {
  res.json(req.query.search === undefined ? bodies.list : bodies.search);
});
app.get('/api/v1/materials/:id', (req, res) => {
  res.json(bodies.materials[req.params.id]);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
