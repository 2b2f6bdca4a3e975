// Files a notebook names (issue 37, items 2, 3 and 12): `< ./file` in a body, a multipart part, and
// `?? json matches schema <file>` read only regular files inside the notebook's folder by their REAL
// path, capped, chosen by the notebook's text (never by an earlier answer), and no message quotes
// the file. Real temp folders, real links, a real FIFO.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectionsHost, runNotebook, type CellResult, type NotebookHost } from '../../../src/notebook/api';

const FILE = 'files.awb.md';
const OUTSIDE_SECRET = 'outside-secret-sk_live_0123456789abcdef';
const INSIDE_KEY = 'inside-key-file-0123456789abcdefghij';

function notebook(...cells: Array<[string, string]>): string {
  return cells.map(([info, body], i) => `Cell ${i + 1}.\n\n\`\`\`${info}\n${body}\n\`\`\`\n`).join('\n');
}

describe('notebook files: the notebook folder by real path, regular files, capped, chosen by the text', function () {
  this.timeout(20_000);
  let server: Server;
  let base = '';
  let received: string[];
  let dir: string;
  let host: NotebookHost;

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('latin1'));
        res.setHeader('content-type', 'application/json');
        // An answer that names a file, as a hostile API could.
        res.end(JSON.stringify({ line: '< ./inside-key.txt', schema: './schema.json', id: 7 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    const top = mkdtempSync(path.join(tmpdir(), 'awb-files-'));
    mkdirSync(path.join(top, 'outside'));
    writeFileSync(path.join(top, 'outside', 'secret.txt'), OUTSIDE_SECRET);
    writeFileSync(path.join(top, 'outside', 'schema.json'), '{"type": "object"}');
    dir = path.join(top, 'nb');
    mkdirSync(dir);
    symlinkSync('../outside/secret.txt', path.join(dir, 'link.txt'));
    symlinkSync('../outside/schema.json', path.join(dir, 'link.json'));
    symlinkSync(path.join(top, 'outside'), path.join(dir, 'dirlink'));
    writeFileSync(path.join(dir, 'inside-key.txt'), INSIDE_KEY);
    writeFileSync(path.join(dir, 'schema.json'), '{"type": "object", "required": ["id"]}');
    symlinkSync('schema.json', path.join(dir, 'alias.json'));
    writeFileSync(path.join(dir, 'key.json'), `${INSIDE_KEY}\n`);
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    mkdirSync(path.join(dir, 'sub'));
    host = connectionsHost({ connections: [], key: () => undefined, allowedHosts: ['127.0.0.1'] });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received = [];
  });

  async function run(text: string): Promise<CellResult[]> {
    return (await runNotebook(text, { host, file: FILE, baseDir: dir })).results;
  }

  const multipart = (line: string) =>
    ['Content-Type: multipart/form-data; boundary=XB', '', '--XB', 'Content-Disposition: form-data; name="file"; filename="f.txt"', '', line, '--XB--'].join(
      '\n',
    );

  it('a link to a file outside the folder, and a file through a linked folder, are refused; nothing is sent', async () => {
    const results = await run(
      notebook(['http', `POST ${base}/a\nContent-Type: text/plain\n\n< ./link.txt`], ['http', `POST ${base}/b\n${multipart('< ./dirlink/secret.txt')}`]),
    );
    for (const r of results) {
      assert.match(
        r.error ?? '',
        /only files in the notebook's folder \(or below\) can be sent; this path leads out of it through a link.*; nothing was sent$/,
      );
      assert.ok(!JSON.stringify(r).includes(OUTSIDE_SECRET));
    }
    assert.equal(received.length, 0);
  });

  it('a link that stays inside the folder still works', async () => {
    const [r] = await run(notebook(['http', `POST ${base}/a\nContent-Type: application/json\n\n< ./alias.json\n\n?? status == 200`]));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(received, ['{"type": "object", "required": ["id"]}']);
  });

  it('a FIFO, /dev/zero or a folder as a body is refused at once (no hang, no memory)', async () => {
    const results = await run(notebook(['http', `POST ${base}/a\n\n< ./pipe.json`], ['http', `POST ${base}/a\n${multipart('< ./sub')}`]));
    for (const r of results)
      assert.match(r.error ?? '', /not a regular file \(a folder, a device, a pipe or a socket\): only regular files can be sent; nothing was sent$/);
    assert.equal(received.length, 0);
  });

  it("an earlier answer cannot choose a file: a line it fills in is text, and a file's path cannot hold a variable", async () => {
    const [, part, chosen] = await run(
      notebook(
        ['http name=s', `GET ${base}/s`],
        ['http', `POST ${base}/up\n${multipart('{{s.json.line}}')}\n\n?? status == 200`],
        ['http', `POST ${base}/up\n${multipart('< ./{{s.json.schema}}')}`],
      ),
    );
    assert.equal(part.ok, true, JSON.stringify(part));
    assert.ok(received[1].includes('\r\n< ./inside-key.txt\r\n'), received[1]);
    assert.ok(!received.join('').includes(INSIDE_KEY));
    assert.match(chosen.error ?? '', /"< \.\/\{\{s\.json\.schema\}\}": a variable cannot choose the file: write its path out; nothing was sent$/);
    assert.equal(received.length, 2);
  });

  describe('?? json matches schema <file>', () => {
    async function schemaCheck(file: string) {
      const [r] = await run(notebook(['http name=s', `GET ${base}/s\n\n?? json matches schema ${file}`]));
      assert.equal(r.assertions.length, 1, JSON.stringify(r));
      return r.assertions[0];
    }

    it('reads a schema next to the notebook (and through a link inside the folder)', async () => {
      for (const f of ['./schema.json', 'alias.json']) assert.equal((await schemaCheck(f)).passed, true, f);
    });

    it('refuses ../, absolute paths, /proc/self/environ and links out of the folder', async () => {
      for (const [f, through] of [
        ['../outside/schema.json', false],
        ['/proc/self/environ', false],
        [path.join(dir, 'schema.json'), false],
        ['./link.json', true],
        ['dirlink/schema.json', true],
      ] as const) {
        const a = await schemaCheck(f);
        assert.equal(a.passed, false, f);
        assert.match(a.actual, /^\(not checked: the schema file .*: only files in the notebook's folder \(or below\) can be read as a schema/, f);
        assert.equal(a.actual.includes('through a link'), through, `${f}: ${a.actual}`);
      }
    });

    it('a FIFO, /dev/stdin or /dev/zero is refused at once', async () => {
      for (const f of ['./pipe.json', './sub']) {
        const a = await schemaCheck(f);
        assert.match(a.actual, /not a regular file \(a folder, a device, a pipe or a socket\)/, f);
      }
      symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
      symlinkSync('/dev/stdin', path.join(dir, 'stdin.json'));
      for (const f of ['./zero.json', './stdin.json']) {
        const a = await schemaCheck(f);
        assert.equal(a.passed, false);
        assert.match(a.actual, /only files in the notebook's folder|not a regular file/, f);
      }
    });

    it('a file that is not JSON is said so by line and column, never by its characters', async () => {
      const a = await schemaCheck('./key.json');
      assert.equal(a.actual, '(not checked: The schema file ./key.json is not valid JSON at line 1 column 1.)');
      assert.ok(!JSON.stringify(a).includes(INSIDE_KEY.slice(0, 5)));
      writeFileSync(path.join(dir, 'broken.json'), `{\n  "type": "object",\n  "x": ${INSIDE_KEY}\n}`);
      const b = await schemaCheck('broken.json');
      assert.equal(b.actual, '(not checked: The schema file broken.json is not valid JSON at line 3 column 8.)');
    });

    it('an answer cannot choose the schema file', async () => {
      const [, r] = await run(notebook(['http name=s', `GET ${base}/s`], ['http', `GET ${base}/t\n\n?? json matches schema {{s.json.schema}}`]));
      assert.equal(r.assertions[0].passed, false);
      assert.equal(r.assertions[0].actual, '(not checked: a variable cannot choose the schema file: write its path out)');
    });
  });
});
