import { conflict, notFound } from '../errors.ts';
import { idParams, json } from '../openapi/common.ts';
import { cancelMaterial } from '../services/cancel-material.ts';
import { jobStatusOf } from '../services/job-status.service.ts';
import { materialDebugInfo } from '../services/material-debug.service.ts';
import { materialViewer } from '../views/material-view.ts';
import { cancelledJobSchema, debugInfoSchema, jobStatusSchema } from './material-jobs.schema.ts';
import { apiRoute, type AnyRoute } from './route.ts';

const tags = ['Materials'];
const params = idParams('Material id');

/** A material's processing job, as the public service's SDK reads it: its status, what is stored, and cancelling it. */
export const materialJobRoutes: AnyRoute[] = [
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}/job-status',
    tags,
    summary: "The material's processing job: status, progress, result",
    params,
    responses: { 200: json('The job', jobStatusSchema) },
    errors: [404],
    handle: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await jobStatusOf(ctx, principal.organizationId, params.id),
    }),
  }),
  apiRoute({
    method: 'get',
    path: '/api/v1/materials/{id}/debug',
    tags,
    summary: 'The material as stored, its images, and how its transcript was made',
    params,
    responses: { 200: json('What quire holds', debugInfoSchema) },
    errors: [404],
    handle: async ({ ctx, principal, params }) => ({
      status: 200,
      body: await materialDebugInfo(ctx, principal.organizationId, params.id),
    }),
  }),
  apiRoute({
    method: 'post',
    path: '/api/v1/materials/{id}/cancel-job',
    tags,
    summary: 'Cancel processing',
    description:
      'A queued job is removed; a running one is stopped on whichever worker runs it (its extraction process is ' +
      "killed), and a long recording's chunk jobs with it. The material ends `error` with code `CANCELLED` (a " +
      '`material.failed` webhook is sent) and can be reprocessed. Answers once the jobs have stopped. A material ' +
      'not being processed is 409, and so is a job that finished before the cancel could take effect.',
    params,
    responses: { 200: json('Cancelled', cancelledJobSchema) },
    errors: [404, 409],
    handle: async ({ ctx, principal, params }) => {
      const outcome = await cancelMaterial(ctx, principal.organizationId, params.id);
      if (outcome.status === 'not-processing') {
        throw conflict(
          `The material is ${outcome.material.status}: only a material being processed has a job to cancel`,
        );
      }
      if (outcome.status === 'finished-first') {
        if (!outcome.material) throw notFound();
        throw conflict(`The job finished before it could be cancelled: the material is ${outcome.material.status}`);
      }
      const { material } = outcome;
      return {
        status: 200,
        body: {
          success: true,
          jobId: material.id,
          status: 'cancelled',
          message: 'Processing was cancelled',
          material: await materialViewer(ctx.signUrl)(material),
        },
      };
    },
  }),
];
