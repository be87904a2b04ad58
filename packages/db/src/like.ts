/** An ILIKE pattern matching `text` anywhere, with the pattern's own wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
