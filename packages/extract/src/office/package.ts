import path from 'node:path/posix';
import type { Document } from 'domhandler';
import type { ZipArchive } from '../zip-archive.ts';
import { attribute, childElements, parseXml, rootOf } from './xml.ts';

export interface Relationship {
  id: string;
  type: string;
  /** The part's name inside the package; undefined for an external target, which is never fetched. */
  part?: string;
}

/** Reads the parts of an office package (OOXML or OpenDocument), a part missing from it being undefined. */
export class OfficePackage {
  private readonly names: Set<string>;

  constructor(readonly archive: ZipArchive) {
    this.names = new Set(archive.names.map((name) => name.toLowerCase()));
  }

  has(part: string): boolean {
    return this.names.has(part.replace(/^\//, '').toLowerCase());
  }

  async bytes(part: string): Promise<Buffer | undefined> {
    const name = part.replace(/^\//, '');
    return this.has(name) ? this.archive.read(name) : undefined;
  }

  async xml(part: string): Promise<Document | undefined> {
    const bytes = await this.bytes(part);
    return bytes ? parseXml(bytes) : undefined;
  }

  /** The relationships of an OOXML part, by id; targets resolved against the part's folder. */
  async relationships(part: string): Promise<Map<string, Relationship>> {
    const relsPart = path.join(path.dirname(part), '_rels', `${path.basename(part)}.rels`);
    const document = await this.xml(relsPart);
    const out = new Map<string, Relationship>();
    const root = document && rootOf(document);
    if (!root) return out;
    for (const rel of childElements(root, 'Relationship')) {
      const id = attribute(rel, 'Id');
      const target = attribute(rel, 'Target');
      if (!id || !target) continue;
      const type = (attribute(rel, 'Type') ?? '').split('/').pop()!;
      const external = attribute(rel, 'TargetMode') === 'External' || /^[a-z][a-z0-9+.-]*:/i.test(target);
      out.set(id, {
        id,
        type,
        ...(external ? {} : { part: target.startsWith('/') ? target.slice(1) : path.join(path.dirname(part), target) }),
      });
    }
    return out;
  }

  /** The package's main part of an OOXML file, from its root relationships. */
  async mainPart(fallback: string): Promise<string> {
    for (const rel of (await this.relationships('')).values())
      if (rel.type === 'officeDocument' && rel.part && this.has(rel.part)) return rel.part;
    return fallback;
  }
}
