/** A page of rows with the counts the list endpoints answer. */
export function pageOf<T>({ rows, total }: { rows: T[]; total: number }, q: { page: number; limit: number }) {
  return { rows, totalCount: total, page: q.page, totalPages: Math.ceil(total / q.limit) };
}

/** The row offset of a 1-based page. */
export const offsetOf = (q: { page: number; limit: number }) => (q.page - 1) * q.limit;
