import JSZip from 'jszip';
import sharp from 'sharp';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

const rels = (items: [id: string, type: string, target: string][]) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;

const contentTypes = (main: string, overrides: [part: string, type: string][] = []) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>' +
  `<Override PartName="${main.split(' ')[0]}" ContentType="${main.split(' ')[1]}"/>` +
  overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
  '</Types>';

const zipOf = (zip: JSZip) => zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });

/** A picture large enough to be kept as content (images under 48 px are decoration). */
export const officePicture = (width = 320, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: '#2266aa' } })
    .png()
    .toBuffer();

const wp = (text: string, properties = '') =>
  `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const listItem = (text: string, numId: number, ilvl: number) =>
  wp(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
const tc = (text: string, properties = '') =>
  `<w:tc>${properties ? `<w:tcPr>${properties}</w:tcPr>` : ''}${wp(text)}</w:tc>`;

/**
 * A Word document with a title, headings (one through a style based on Heading 2, three numbered), a nested bulleted list, a
 * numbered list, a table with a merged header and a cell merged down, a picture, a footnote, a comment, a text
 * box and a running header.
 */
export async function makeDocx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    contentTypes('/word/document.xml application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
  );
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'word/document.xml']]));
  zip.file(
    'word/_rels/document.xml.rels',
    rels([
      ['rId1', 'styles', 'styles.xml'],
      ['rId2', 'numbering', 'numbering.xml'],
      ['rId3', 'image', 'media/chart.png'],
      ['rId4', 'footnotes', 'footnotes.xml'],
      ['rId5', 'comments', 'comments.xml'],
      ['rId6', 'header', 'header1.xml'],
      ['rId7', 'image', 'https://example.invalid/remote.png'],
    ]).replace(
      'Target="https://example.invalid/remote.png"',
      'Target="https://example.invalid/remote.png" TargetMode="External"',
    ),
  );
  zip.file(
    'word/styles.xml',
    `${XML}<w:styles ${W}>` +
      '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="ChapterPart"><w:name w:val="Chapter Part"/><w:basedOn w:val="Heading2"/></w:style>' +
      '</w:styles>',
  );
  zip.file(
    'word/numbering.xml',
    `${XML}<w:numbering ${W}>` +
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>' +
      '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>' +
      '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1"/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>' +
      '</w:numbering>',
  );
  zip.file(
    'word/footnotes.xml',
    `${XML}<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
      `<w:footnote w:id="1">${wp('Chlorophyll absorbs red and blue light.')}</w:footnote></w:footnotes>`,
  );
  zip.file(
    'word/comments.xml',
    `${XML}<w:comments ${W}><w:comment w:id="0" w:author="Reviewer">${wp('Check this figure')}</w:comment></w:comments>`,
  );
  zip.file('word/header1.xml', `${XML}<w:hdr ${W}>${wp('Biology 101 handout')}</w:hdr>`);
  zip.file('word/media/chart.png', await officePicture());
  const picture =
    '<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="1" name="Picture 1" descr="A leaf under the microscope"/>' +
    `<a:graphic ${A}><a:graphicData><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rId3"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const remote = `<w:r><w:drawing><a:graphic ${A}><a:blip r:link="rId7"/></a:graphic></w:drawing></w:r>`;
  const textBox =
    '<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent>' +
    wp('Remember the stomata') +
    '</w:txbxContent></v:textbox></v:shape></w:pict></w:r>';
  const body = [
    wp('Photosynthesis', '<w:pStyle w:val="Title"/>'),
    wp('Light reactions', '<w:pStyle w:val="Heading1"/>'),
    `<w:p><w:r><w:t xml:space="preserve">Plants turn light into sugar</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:commentRangeStart w:id="0"/><w:r><w:t>.</w:t></w:r><w:r><w:commentReference w:id="0"/></w:r>${textBox}</w:p>`,
    wp('The thylakoid', '<w:pStyle w:val="ChapterPart"/>'),
    listItem('Water is split', 1, 0),
    listItem('Oxygen is released', 1, 1),
    listItem('ATP is made', 1, 0),
    listItem('First step', 2, 0),
    listItem('Second step', 2, 0),
    '<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr>' +
      tc('Stage', '<w:vMerge w:val="restart"/>') +
      tc('Inputs and outputs', '<w:gridSpan w:val="2"/>') +
      '</w:tr><w:tr>' +
      tc('', '<w:vMerge/>') +
      tc('In') +
      tc('Out') +
      '</w:tr><w:tr>' +
      tc('Calvin cycle') +
      tc('CO2') +
      tc('Glucose') +
      '</w:tr></w:tbl>',
    `<w:p>${picture}${remote}</w:p>`,
    wp('Dark reactions', '<w:pStyle w:val="Heading1"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>'),
    wp('Carbon fixation', '<w:pStyle w:val="Heading2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr>'),
    wp('Regeneration', '<w:pStyle w:val="Heading2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr>'),
    '<w:p><w:hyperlink r:id="rId9"><w:r><w:t>Read the chapter online</w:t></w:r></w:hyperlink></w:p>',
    `<w:sectPr><w:headerReference w:type="default" r:id="rId6"/></w:sectPr>`,
  ].join('');
  zip.file('word/document.xml', `${XML}<w:document ${W} ${R}><w:body>${body}</w:body></w:document>`);
  return zipOf(zip);
}

const shape = (id: number, text: string, x: number, y: number, placeholder = '') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr>` +
  `<p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="1000000" cy="500000"/></a:xfrm></p:spPr>` +
  `<p:txBody><a:bodyPr/>${text
    .split('\n')
    .map((line) => `<a:p><a:r><a:t>${line}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`;

const slideXml = (shapes: string, hidden = false) =>
  `${XML}<p:sld ${A} ${P} ${R}${hidden ? ' show="0"' : ''}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:sld>`;

/**
 * A deck of three slides: the first with a title, text frames laid out out of reading order, a grouped shape
 * (its children placed by the group's transform), a table and a picture, with speaker notes; the second hidden;
 * the third with notes only.
 */
export async function makePptx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    contentTypes(
      '/ppt/presentation.xml application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    ),
  );
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]));
  zip.file(
    'ppt/presentation.xml',
    `${XML}<p:presentation ${P} ${R}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/><p:sldId id="258" r:id="rId4"/></p:sldIdLst></p:presentation>`,
  );
  zip.file(
    'ppt/_rels/presentation.xml.rels',
    rels([
      ['rId2', 'slide', 'slides/slide1.xml'],
      ['rId3', 'slide', 'slides/slide2.xml'],
      ['rId4', 'slide', 'slides/slide3.xml'],
    ]),
  );
  const group =
    '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="10" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
    '<p:grpSpPr><a:xfrm><a:off x="0" y="3000000"/><a:ext cx="2000000" cy="1000000"/><a:chOff x="5000000" y="0"/><a:chExt cx="2000000" cy="1000000"/></a:xfrm></p:grpSpPr>' +
    shape(11, 'Grouped right', 6000000, 0) +
    shape(12, 'Grouped left', 5000000, 0) +
    '</p:grpSp>';
  const cell = (text: string, extra = '') =>
    `<a:tc${extra}><a:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></a:txBody></a:tc>`;
  const table =
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="20" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
    '<p:xfrm><a:off x="0" y="5000000"/><a:ext cx="4000000" cy="1000000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">' +
    `<a:tbl><a:tblPr firstRow="1"/><a:tr h="100">${cell('Organelle')}${cell('Job')}</a:tr><a:tr h="100">${cell('Chloroplast')}${cell('Makes sugar')}</a:tr></a:tbl>` +
    '</a:graphicData></a:graphic></p:graphicFrame>';
  const picture =
    '<p:pic><p:nvPicPr><p:cNvPr id="30" name="Picture" descr="A chloroplast"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId5"/></p:blipFill>' +
    '<p:spPr><a:xfrm><a:off x="0" y="6000000"/><a:ext cx="100" cy="100"/></a:xfrm></p:spPr></p:pic>';
  zip.file(
    'ppt/slides/slide1.xml',
    slideXml(
      shape(3, 'Lower text frame', 0, 2000000) +
        shape(2, 'Inside the chloroplast', 0, 0, '<p:ph type="title"/>') +
        shape(4, 'Upper text frame', 0, 1000000) +
        group +
        table +
        picture,
    ),
  );
  zip.file(
    'ppt/slides/_rels/slide1.xml.rels',
    rels([
      ['rId1', 'notesSlide', '../notesSlides/notesSlide1.xml'],
      ['rId5', 'image', '../media/image1.png'],
    ]),
  );
  zip.file('ppt/media/image1.png', await officePicture());
  const notes = (text: string) =>
    `${XML}<p:notes ${A} ${P} ${R}><p:cSld><p:spTree>${shape(2, text, 0, 0, '<p:ph type="body" idx="1"/>')}</p:spTree></p:cSld></p:notes>`;
  zip.file('ppt/notesSlides/notesSlide1.xml', notes('Mention the stroma and the thylakoid membranes'));
  zip.file('ppt/slides/slide2.xml', slideXml(shape(2, 'A hidden backup slide', 0, 0, '<p:ph type="title"/>'), true));
  zip.file('ppt/slides/slide3.xml', slideXml(shape(2, 'Questions', 0, 0, '<p:ph type="title"/>')));
  zip.file('ppt/slides/_rels/slide3.xml.rels', rels([['rId1', 'notesSlide', '../notesSlides/notesSlide3.xml']]));
  zip.file('ppt/notesSlides/notesSlide3.xml', notes('Ask about chemiosmosis before the break'));
  return zipOf(zip);
}

/**
 * A workbook of two sheets: the first with a header row, shared strings, a formula with its cached value, a date
 * (built-in format 14) and an empty row and column between its cells; the second with a custom date-time format.
 */
export async function makeXlsx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    contentTypes('/xl/workbook.xml application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
  );
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'xl/workbook.xml']]));
  zip.file(
    'xl/workbook.xml',
    `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ${R}><sheets><sheet name="Grades" sheetId="1" r:id="rId1"/><sheet name="Schedule" sheetId="2" r:id="rId2"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    rels([
      ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
      ['rId2', 'worksheet', 'worksheets/sheet2.xml'],
      ['rId3', 'sharedStrings', 'sharedStrings.xml'],
      ['rId4', 'styles', 'styles.xml'],
    ]),
  );
  const strings = ['Student', 'Score', 'Handed in', 'Ada', 'Grace', 'Total', 'Lab'];
  zip.file(
    'xl/sharedStrings.xml',
    `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
  );
  zip.file(
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd hh:mm"/></numFmts>` +
      '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>',
  );
  const sheet = (rows: string) =>
    `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  zip.file(
    'xl/worksheets/sheet1.xml',
    sheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c><c r="D1" t="s"><v>2</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="C2"><v>0.30000000000000004</v></c><c r="D2" s="1"><v>45292</v></c></row>' +
        '<row r="4"><c r="A4" t="s"><v>4</v></c><c r="C4"><v>17</v></c><c r="D4" s="1"><v>45293</v></c></row>' +
        '<row r="5"><c r="A5" t="s"><v>5</v></c><c r="C5"><f>SUM(C2:C4)</f><v>17.3</v></c></row>',
    ),
  );
  zip.file(
    'xl/worksheets/sheet2.xml',
    sheet(
      '<row r="1"><c r="A1" t="s"><v>6</v></c><c r="B1" s="2"><v>45292.5</v></c><c r="C1" t="inlineStr"><is><t>Room 4</t></is></c></row>',
    ),
  );
  return zipOf(zip);
}

/** An OpenDocument text with a heading, a paragraph with a footnote, a nested bulleted list and a numbered one. */
export async function makeOdt(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
  zip.file(
    'META-INF/manifest.xml',
    `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
  );
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
  zip.file(
    'content.xml',
    `${XML}<office:document-content ${ns}><office:automatic-styles>` +
      '<text:list-style style:name="Bullets"><text:list-level-style-bullet text:level="1"/><text:list-level-style-bullet text:level="2"/></text:list-style>' +
      '<text:list-style style:name="Numbers"><text:list-level-style-number text:level="1"/></text:list-style>' +
      '</office:automatic-styles><office:body><office:text>' +
      '<text:h text:outline-level="1">Cell division</text:h>' +
      '<text:p>Mitosis makes two<text:s/>identical cells.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Meiosis makes four.</text:p></text:note-body></text:note></text:p>' +
      '<text:list text:style-name="Bullets"><text:list-item><text:p>Prophase</text:p><text:list><text:list-item><text:p>Chromosomes condense</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Metaphase</text:p></text:list-item></text:list>' +
      '<text:list text:style-name="Numbers"><text:list-item><text:p>Count the cells</text:p></text:list-item></text:list>' +
      '<table:table><table:table-row><table:table-cell><text:p>Phase</text:p></table:table-cell><table:table-cell><text:p>Hours</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell><text:p>Mitosis</text:p></table:table-cell><table:table-cell><text:p>1</text:p></table:table-cell></table:table-row></table:table>' +
      '</office:text></office:body></office:document-content>',
  );
  return zipOf(zip);
}

/** A Rich Text Format document with a heading (outline level), paragraphs in windows-1252 and a \u escape. */
export function makeRtf(): Buffer {
  return Buffer.from(
    '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times New Roman;}}{\\info{\\title Hidden title}}' +
      '\\pard\\outlinelevel0\\b Enzymes\\b0\\par' +
      "\\pard Enzymes speed up reactions in the caf\\'e9 of the cell.\\par" +
      '\\pard They are proteins \\u8212? mostly.\\par}',
    'latin1',
  );
}

/**
 * An OLE2 compound file holding `EncryptionInfo` and `EncryptedPackage` streams: what Office writes for a
 * password-protected DOCX, XLSX or PPTX (the streams' content does not matter to the sniffer).
 */
export function makeEncryptedOffice(): Buffer {
  return makeOle2(['EncryptionInfo', 'EncryptedPackage']);
}

/** An OLE2 compound file whose root holds empty streams of these names (at most three). */
export function makeOle2(streams: string[]): Buffer {
  const sector = 512;
  const header = Buffer.alloc(sector, 0);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(0, 48); // first directory sector
  header.writeUInt32LE(4096, 56);
  header.writeUInt32LE(0xfffffffe, 60);
  header.writeUInt32LE(0xfffffffe, 68);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 1 : 0xffffffff, 76 + i * 4);
  const directory = Buffer.alloc(sector, 0);
  const entry = (index: number, name: string, type: number) => {
    const at = index * 128;
    directory.write(`${name}\0`, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 64);
    directory[at + 66] = type;
    directory.writeUInt32LE(0xffffffff, at + 68);
    directory.writeUInt32LE(0xffffffff, at + 72);
    directory.writeUInt32LE(index === 0 ? 1 : 0xffffffff, at + 76);
    directory.writeUInt32LE(0xfffffffe, at + 116);
  };
  entry(0, 'Root Entry', 5);
  streams.slice(0, 3).forEach((name, index) => entry(index + 1, name, 2));
  const fat = Buffer.alloc(sector, 0xff);
  fat.writeUInt32LE(0xfffffffe, 0);
  fat.writeUInt32LE(0xfffffffd, 4);
  return Buffer.concat([header, directory, fat]);
}

/** A zip with a Word document's parts, one of which inflates to `inflatedMb` of zeros: a zip bomb named .docx. */
export async function makeOfficeZipBomb(inflatedMb = 64): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    contentTypes('/word/document.xml application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
  );
  zip.file('_rels/.rels', rels([['rId1', 'officeDocument', 'word/document.xml']]));
  zip.file('word/document.xml', Buffer.alloc(inflatedMb * 1024 * 1024, 0x20));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}
