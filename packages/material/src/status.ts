export const MATERIAL_STATUSES = ['pending_upload', 'processing', 'active', 'error', 'deleted'] as const;
export type MaterialStatus = (typeof MATERIAL_STATUSES)[number];

/**
 * Every move a material's status may make. A batch slot waits for its bytes (`pending_upload`); processing
 * ends `active` or `error`; reprocessing starts over from either (and goes back if it cannot be enqueued);
 * anything not yet deleted can be deleted.
 */
export const STATUS_TRANSITIONS: Readonly<Record<MaterialStatus, readonly MaterialStatus[]>> = {
  pending_upload: ['processing', 'deleted'],
  processing: ['active', 'error', 'deleted'],
  active: ['processing', 'deleted'],
  error: ['processing', 'deleted'],
  deleted: [],
};

/** Statuses that end a run: waiting, event streams and webhooks stop at these. */
export const SETTLED_STATUSES: readonly MaterialStatus[] = ['active', 'error', 'deleted'];
export const REPROCESSABLE_STATUSES = ['active', 'error'] as const satisfies readonly MaterialStatus[];
export const DELETABLE_STATUSES = [
  'pending_upload',
  'processing',
  'active',
  'error',
] as const satisfies readonly MaterialStatus[];

export const canTransition = (from: MaterialStatus, to: MaterialStatus) => STATUS_TRANSITIONS[from].includes(to);

/** Throws on a move the table does not allow: a programming error, never a client's. */
export function assertTransitions(from: readonly MaterialStatus[], to: MaterialStatus): void {
  const refused = from.filter((status) => !canTransition(status, to));
  if (refused.length > 0) throw new Error(`a material cannot go from ${refused.join(', ')} to ${to}`);
}
