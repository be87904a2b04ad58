import { AppError } from '../errors.ts';
import { apiRoute, type AnyRoute } from './route.ts';

const tags = ['Materials'];

const notGenerated = () =>
  new AppError(
    501,
    'NOT_IMPLEMENTED',
    'quire does not generate materials: it includes no language model. Create the material from your own text ' +
      'with POST /api/v1/materials or /upload-and-process instead.',
  );

/**
 * The public service writes materials from a topic with a language model. quire has none and never calls one, so
 * these answer 501 with the usual error body (never 404, which would say the path is wrong).
 */
export const materialGenerationRoutes: AnyRoute[] = ['generate', 'generate-and-process'].map((action) =>
  apiRoute({
    method: 'post',
    path: `/api/v1/materials/${action}`,
    tags,
    summary: `Not provided: ${action === 'generate' ? 'generate' : 'generate and process'} a material with a language model`,
    description: 'Always 501: quire includes no language model. Whatever the body, nothing is created.',
    responses: {},
    errors: [501],
    handle: () => Promise.reject(notGenerated()),
  }),
);
