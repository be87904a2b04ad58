/**
 * The most characters of cell text a workbook gives, all its sheets together. A cell can repeat text it does not
 * hold (a shared string, an ODF repeat), so a small file can name gigabytes of it; the cells past this are left
 * out and the metadata says so, as it does for a sheet cut at `MAX_CELLS_PER_SHEET`. A sheet at that cap fits
 * whole unless its cells average more than 40 characters (the largest workbook of POI's bug corpus gives 0.25
 * million); POI's poc-shared-strings.xlsx, cut here, peaks at 215 MB in its sandboxed child.
 */
export const MAX_WORKBOOK_CHARS = 8_000_000;

/** What is left of a workbook's characters (or of another limit's) as its text is read, in order. */
export class TextBudget {
  private left: number;

  constructor(limit = MAX_WORKBOOK_CHARS) {
    this.left = limit;
  }

  /** Whether nothing more fits: the sheets still to come keep their names and no cells. */
  get spent(): boolean {
    return this.left <= 0;
  }

  /** Takes a cell's text from what is left; false, taking nothing, when it does not fit, and nothing fits after. */
  take(text: string): boolean {
    if (text.length > this.left) {
      this.left = 0;
      return false;
    }
    this.left -= text.length;
    return true;
  }
}
