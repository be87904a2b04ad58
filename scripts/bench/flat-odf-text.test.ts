import { describe, expect, it } from 'vitest';
import { flatOdfText } from './flat-odf-text.ts';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('flatOdfText (the office bench reference)', () => {
  it("takes a text document's body, frames, notes, alt text and distinct headers, and leaves comments, deletions and binary data out", () => {
    const xml =
      `<?xml version="1.0"?><office:document ${NS}><office:master-styles>` +
      '<style:master-page style:name="A"><style:header><text:p>Course notes</text:p></style:header></style:master-page>' +
      '<style:master-page style:name="B"><style:header><text:p>Course notes</text:p></style:header><style:footer><text:p>Page</text:p></style:footer></style:master-page>' +
      '</office:master-styles><office:body><office:text>' +
      '<text:tracked-changes><text:changed-region><text:deletion><text:p>gone</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
      '<text:p>Ce<text:span>lls</text:span><text:s/>divide<office:annotation><text:p>check</text:p></office:annotation>' +
      '<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>Mostly.</text:p></text:note-body></text:note></text:p>' +
      '<text:p><draw:frame><draw:text-box><text:p>Boxed</text:p></draw:text-box><draw:image><office:binary-data>QUJD</office:binary-data></draw:image><svg:desc>A cell</svg:desc></draw:frame></text:p>' +
      '</office:text></office:body></office:document>';
    expect(words(flatOdfText(xml))).toEqual([
      'Course',
      'notes',
      'Page',
      'Cells',
      'divide',
      'Mostly.',
      'Boxed',
      'A',
      'cell',
    ]);
  });

  it("takes a deck's slides and speaker notes but not its master pages, and a sheet's name and cells", () => {
    const deck =
      `<?xml version="1.0"?><office:document ${NS}><office:master-styles><style:master-page><draw:frame><draw:text-box><text:p>Click to add Title</text:p></draw:text-box></draw:frame></style:master-page></office:master-styles>` +
      '<office:body><office:presentation><draw:page><draw:frame><draw:text-box><text:p>Photosynthesis</text:p></draw:text-box></draw:frame>' +
      '<presentation:notes><draw:frame><draw:text-box><text:p>Ask about leaves</text:p></draw:text-box></draw:frame></presentation:notes></draw:page></office:presentation></office:body></office:document>';
    expect(words(flatOdfText(deck))).toEqual(['Photosynthesis', 'Ask', 'about', 'leaves']);
    const sheet =
      `<?xml version="1.0"?><office:document ${NS}><office:body><office:spreadsheet><table:table table:name="Marks">` +
      '<table:table-row><table:table-cell><text:p>Ada</text:p></table:table-cell><table:table-cell><text:p>17</text:p></table:table-cell></table:table-row>' +
      '</table:table></office:spreadsheet></office:body></office:document>';
    expect(words(flatOdfText(sheet))).toEqual(['Marks', 'Ada', '17']);
  });
});
