import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { NotebookCellData, NotebookData } from '../../../src/notebook/api';
import { cellStartLines, notebookProblems, parseNotebook, serializeNotebook } from '../../../src/notebook/format';

/** What VS Code hands back to a serializer: kind, language, value and metadata (as plain JSON). */
function throughVsCode(data: NotebookData): NotebookData {
  return JSON.parse(
    JSON.stringify({ cells: data.cells.map((c) => ({ kind: c.kind, language: c.language, value: c.value, metadata: c.metadata })), metadata: data.metadata }),
  ) as NotebookData;
}

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,:{}"[\]?=#*-]{0,30}$/);
const eol = fc.constantFrom('\n', '\r\n');
const blank = fc.constantFrom('', ' ', '\t');

/** One piece of a document: prose, a request cell, another fenced block, or blank lines. */
const piece = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 4 }).map((lines) => ({ kind: 'prose' as const, lines })),
  fc
    .record({
      lang: fc.constantFrom('llm', 'maps', 'realtime', 'vars', 'json', 'text', ''),
      attrs: fc.constantFrom('', ' name=lisbon', ' name=a connection="Work account"', ' env=staging', '  name=x  '),
      fence: fc.constantFrom('```', '~~~', '````', '~~~~~'),
      body: fc.array(fc.oneof(word, fc.constant(''), fc.constant('```json'), fc.constant('``` '), fc.constant('?? status == 200'), fc.constant('~~~')), {
        maxLength: 5,
      }),
      indent: fc.constantFrom('', ' ', '   '),
      closeLonger: fc.boolean(),
    })
    .map((f) => ({ kind: 'fence' as const, ...f })),
  fc.array(blank, { minLength: 1, maxLength: 3 }).map((lines) => ({ kind: 'blank' as const, lines })),
);

type Piece = typeof piece extends fc.Arbitrary<infer P> ? P : never;

function render(pieces: Piece[], nl: string, finalNewline: boolean, mixed: boolean): string {
  const lines: string[] = [];
  for (const p of pieces) {
    if (p.kind === 'fence') {
      const close = p.closeLonger ? p.fence + p.fence[0] : p.fence;
      // A body line that would close this fence is left out (it would end the block, as in Markdown).
      const body = p.body.filter((b) => !/^ {0,3}(`{3,}|~{3,})\s*$/.test(b) || b.trim()[0] !== p.fence[0]);
      lines.push(`${p.indent}${p.fence}${p.lang}${p.lang ? p.attrs : ''}`, ...body, close);
    } else lines.push(...p.lines);
  }
  let text = lines.map((l, i) => l + (mixed && i % 3 === 1 ? '\n' : nl)).join('');
  if (!finalNewline) text = text.replace(/(\r\n|\n)$/, '');
  return text;
}

describe('notebook format', () => {
  it('gives back the exact bytes of any document, also after a trip through VS Code', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), eol, fc.boolean(), fc.boolean(), (pieces, nl, finalNewline, mixed) => {
        const text = render(pieces, nl, finalNewline, mixed);
        const parsed = parseNotebook(text);
        assert.equal(serializeNotebook(parsed), text);
        assert.equal(serializeNotebook(throughVsCode(parsed)), text);
      }),
      { numRuns: 600 },
    );
  });

  it('an edited cell is written afresh and reads back as edited, the rest untouched', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 10 }),
        eol,
        fc.boolean(),
        fc.array(word, { maxLength: 4 }),
        (pieces, nl, finalNewline, newLines) => {
          const text = render(pieces, nl, finalNewline, false);
          const parsed = throughVsCode(parseNotebook(text));
          const codeIndex = parsed.cells.findIndex((c) => c.kind === 'code');
          fc.pre(codeIndex >= 0);
          const edited = { ...parsed, cells: parsed.cells.map((c, i) => (i === codeIndex ? { ...c, value: [...newLines, '```', '~~~~~~'].join('\n') } : c)) };
          const again = parseNotebook(serializeNotebook(edited));
          const code = again.cells.filter((c) => c.kind === 'code');
          const before = parsed.cells.filter((c) => c.kind === 'code');
          assert.equal(code.length, before.length);
          const k = parsed.cells.slice(0, codeIndex).filter((c) => c.kind === 'code').length;
          assert.equal(code[k].value, edited.cells[codeIndex].value);
          assert.deepEqual(code[k].metadata.attributes, before[k].metadata.attributes);
          code.forEach((c, i) => i !== k && assert.equal(c.value, before[i].value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads request cells, leaves other fences in Markdown, and keeps attributes', () => {
    const text = [
      '# Tour',
      '',
      '```json',
      '{"a": 1}',
      '```',
      '',
      '```maps name=lisbon connection="Work account"',
      'POST /v1/places:searchText',
      '',
      '{"textQuery": "Lisbon"}',
      '```',
      '',
      '~~~~vars env=staging',
      'city = Porto',
      '~~~~',
    ].join('\r\n');
    const nb = parseNotebook(text, 'tour.awb.md');
    assert.deepEqual(
      nb.cells.map((c) => [c.kind, c.language]),
      [
        ['markup', 'markdown'],
        ['code', 'maps'],
        ['code', 'vars'],
      ],
    );
    assert.equal(nb.cells[0].value, '# Tour\n\n```json\n{"a": 1}\n```');
    assert.deepEqual(nb.cells[1].metadata.attributes, { name: 'lisbon', connection: 'Work account' });
    assert.equal(nb.cells[1].value, 'POST /v1/places:searchText\n\n{"textQuery": "Lisbon"}');
    assert.deepEqual(nb.problems, []);
    assert.deepEqual(cellStartLines(nb.cells), [1, 7, 13]);
    assert.equal(nb.metadata.eol, '\r\n');
  });

  it('a malformed cell is listed with file and line, and the rest of the notebook opens', () => {
    const text = [
      'Intro',
      '',
      '```maps name=a',
      'FETCH places',
      '```',
      '',
      '```llm name=b',
      'GET /models',
      '?? status = 200',
      '```',
      '',
      '```realtime',
      'LISTEN demo-ticker forever',
      '```',
      '',
      '```llm name=ok',
      'GET /models',
      '```',
      '',
    ].join('\n');
    const nb = parseNotebook(text, 'bad.awb.md');
    assert.equal(nb.cells.length, 5);
    const where = nb.problems.map((p) => `${p.file}:${p.line}`);
    assert.deepEqual(where, ['bad.awb.md:4', 'bad.awb.md:9', 'bad.awb.md:13']);
    assert.match(nb.problems[0].message, /not a request line/);
    assert.match(nb.problems[1].message, /operator/);
    assert.match(nb.problems[2].message, /listening time/);
    assert.equal(serializeNotebook(nb), text);
    // After the editor fixes one cell, the problems are those of the cells as they are now.
    const fixed = nb.cells.map((c, i) => (i === 1 ? { ...c, value: 'GET /models' } : c));
    assert.deepEqual(
      notebookProblems(fixed, 'bad.awb.md').map((p) => p.line),
      [9, 13],
    );
  });

  it('new cells from the editor are written with blank lines between them and read back as cells', () => {
    const cells: NotebookCellData[] = [
      { kind: 'markup', language: 'markdown', value: '# New', metadata: {} },
      { kind: 'code', language: 'llm', value: 'GET /models\n\n?? status == 200', metadata: { attributes: { name: 'models' } } },
      { kind: 'code', language: 'vars', value: 'city = Porto', metadata: { attributes: { env: 'my env' } } },
    ];
    const text = serializeNotebook({ cells, metadata: {} });
    assert.equal(text, '# New\n\n```llm name=models\nGET /models\n\n?? status == 200\n```\n\n```vars env="my env"\ncity = Porto\n```\n');
    const back = parseNotebook(text);
    assert.deepEqual(
      back.cells.map((c) => [c.kind, c.language, c.value, c.metadata.attributes]),
      cells.map((c) => [c.kind, c.language, c.value, c.metadata.attributes]),
    );
  });
});
