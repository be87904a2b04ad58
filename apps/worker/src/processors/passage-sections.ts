import type { Box, TextSegment } from '@quire/extract';
import { HeadingPath } from '@quire/material';

/** A stretch of a document under one heading: the heading (when there is one) and what follows it up to the next. */
export interface Section {
  /** The texts of the headings the section stands under, its own heading last, outermost first. */
  heading: string[];
  segments: TextSegment[];
}

/** Running headers and footers repeat on every page: kept in the document, never searched. */
const RUNNING = new Set<TextSegment['kind']>(['page-header', 'page-footer']);

/**
 * A document's elements cut at each heading (or title), so that no search passage runs from one section into
 * the next and each passage knows the headings it stands under. A document without headings is one section.
 */
export function sectionsOf(segments: TextSegment[]): Section[] {
  const sections: Section[] = [];
  const headings = new HeadingPath();
  for (const segment of segments) {
    if (RUNNING.has(segment.kind)) continue;
    const above = headings.above(segment);
    const opens = (segment.kind === 'heading' || segment.kind === 'title') && segment.text.trim() !== '';
    if (opens || sections.length === 0) {
      const heading = opens ? [...above, segment.text.replace(/\s+/g, ' ').trim()] : above;
      sections.push({ heading, segments: [] });
    }
    sections.at(-1)!.segments.push(segment);
  }
  return sections;
}

/**
 * Which stretches of a segment a passage must not cut (each a unit of its text, by offset in it): a list item
 * whole, a table row by row; other text may be cut between any two words (undefined).
 */
export function unitsOf(segment: TextSegment): { start: number; end: number }[] | undefined {
  if (segment.kind === 'list-item') return [{ start: 0, end: segment.text.length }];
  if (segment.kind !== 'table') return undefined;
  const units: { start: number; end: number }[] = [];
  let start = 0;
  for (const line of segment.text.split('\n')) {
    units.push({ start, end: start + line.length });
    start += line.length + 1;
  }
  return units;
}

/** The box around boxes on one page. */
export function unionBox(boxes: Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}
