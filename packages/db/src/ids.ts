import { v7 as uuidv7 } from 'uuid';

/** Time-ordered ids: new rows land at the end of indexes, and ids sort by creation. */
export const newId = (): string => uuidv7();
