// A notebook as a program, proven by running: each example notebook is exported in each format whose
// toolchain this machine has, run against the sandbox, and must exit 0 with every check it writes
// passed; a planted failing check must make it exit 1 naming the check. A format without its
// toolchain is skipped, saying why.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { exportCommand } from '../../../src/cli/export';
import type { Connection, HttpConnection, RealtimeConnection } from '../../../src/core/connections';
import { connectionsFileFor } from '../../../src/core/connectionsFile';
import { notebookProgram, PROGRAM_FORMATS, type ProgramFormat, type ProgramOptions } from '../../../src/features/codegen/notebookProgram';
import { sandboxConnections } from '../../../src/notebook/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { repoRoot } from '../helpers/sandboxProcess';
import { findToolchains, missingToolchain, PYTHON, runCode, runMany } from './toolchains';

const KEYS = { llm: 'sk-sandbox-program-test-key-0123456789', maps: 'AIzaSandboxProgramTestKey0123456789', secret: 'program-app-secret-0123456789' };
const RT = { appId: '525252', key: 'programpublickey', secret: KEYS.secret };
const ENV = { OPENAI_API_KEY: KEYS.llm, GOOGLE_MAPS_API_KEY: KEYS.maps, PUSHER_APP_SECRET: KEYS.secret };
const EXAMPLES = ['sandbox-tour.awb.md', 'prompt-evals.awb.md'];

/** Why `program` cannot run on this machine, or undefined when it can. */
function missing(format: ProgramFormat, program: string): string | undefined {
  if (format === 'python-sdk' && program.includes('import pusher')) return missingToolchain('python-sdk') ?? missingToolchain('python-pusher');
  return missingToolchain(format);
}

function exampleText(example: string): string {
  return readFileSync(path.join(repoRoot(), 'examples', example), 'utf8');
}

describe('Export a notebook as a program: it runs against the sandbox', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let connections: Connection[];
  let opts: ProgramOptions;

  before(async () => {
    [sandbox] = await Promise.all([
      startSandbox({ port: 0, llmKey: KEYS.llm, mapsKey: KEYS.maps, llm: { tokenRate: 0 }, realtime: { ...RT, demo: true } }),
      findToolchains(),
    ]);
    connections = sandboxConnections(sandbox.info).connections;
    const http = (s: 'llm' | 'maps') => connections.find((c): c is HttpConnection => c.service === s)!;
    opts = {
      targets: {
        llm: { baseUrl: http('llm').baseUrl, auth: http('llm').auth },
        maps: { baseUrl: http('maps').baseUrl, baseUrls: { ...http('maps').baseUrls }, auth: http('maps').auth },
      },
      realtime: connections.find((c): c is RealtimeConnection => c.service === 'realtime')!,
    };
  });
  after(async () => {
    await sandbox?.close();
  });

  it('each example in each format exits 0 with its checks passed, and no program holds a key', async () => {
    const skipped = new Set<string>();
    const programs: Array<{ example: string; language: ProgramFormat; code: string }> = [];
    for (const example of EXAMPLES) {
      for (const format of PROGRAM_FORMATS) {
        const program = notebookProgram(exampleText(example), format, opts);
        for (const secret of Object.values(KEYS)) assert.ok(!program.code.includes(secret), `${example} as ${format} holds a key`);
        const why = missing(format, program.code);
        if (why) skipped.add(`${format}: ${why}`);
        else programs.push({ example, language: format, code: program.code });
      }
    }
    const ran = await runMany(programs, ENV, 90_000);
    const failures = programs.flatMap(({ example, language }, i) => {
      const passed = /^all (\d+) checks passed$/m.exec(ran[i].stdout);
      if (ran[i].code === 0 && passed && Number(passed[1]) >= 5) return [];
      return [`${example} as ${language}: exit ${ran[i].code}\n${ran[i].stdout.slice(-1500)}\n${ran[i].stderr.slice(-1500)}`];
    });
    for (const s of skipped) console.log(`      skipped ${s}`);
    assert.deepEqual(failures, []);
    assert.ok(programs.length >= 4, `only ${programs.length} programs ran`);
  });

  it('a check planted to fail makes each program exit 1, printing the check, what it expected and what came', async () => {
    const text = exampleText('prompt-evals.awb.md').replace('?? status == 200', '?? status == 201');
    const programs = PROGRAM_FORMATS.map((format) => ({ language: format, code: notebookProgram(text, format, opts).code })).filter(
      (p) => !missing(p.language, p.code),
    );
    const ran = await runMany(programs, ENV, 90_000);
    programs.forEach(({ language }, i) => {
      assert.equal(ran[i].code, 1, `${language}: exit ${ran[i].code}\n${ran[i].stdout}\n${ran[i].stderr}`);
      assert.match(ran[i].stdout, /^FAILED suggest: \?\? status == 201\n {4}expected == 201, actual 200$/m, language);
      assert.match(ran[i].stdout, /^1 of \d+ checks failed:$/m, language);
    });
    assert.ok(programs.length >= 2);
  });

  it('is laid out as its formatter leaves it: prettier (defaults) for JavaScript, black for Python', async () => {
    const blackMissing = missingToolchain('black');
    if (blackMissing) console.log(`      Python not checked: ${blackMissing}`);
    const dir = mkdtempSync(path.join(tmpdir(), 'awb-program-format-'));
    const pythonFiles: string[] = [];
    for (const example of EXAMPLES) {
      for (const format of PROGRAM_FORMATS) {
        const code = notebookProgram(exampleText(example), format, opts).code;
        if (format.startsWith('javascript')) assert.equal(await prettier.format(code, { parser: 'babel' }), code, `${example} as ${format}`);
        else pythonFiles.push(path.join(dir, `${example.replace(/\W/g, '_')}_${format.replace(/\W/g, '_')}.py`));
        if (format.startsWith('python')) writeFileSync(pythonFiles.at(-1)!, code);
      }
    }
    if (blackMissing) return;
    // One black process for every file: each start costs a second.
    const r = spawnSync(PYTHON, ['-m', 'black', '--check', '--diff', '--quiet', ...pythonFiles], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it('api-workbench export --format python --connections writes the program, which runs green', async function () {
    const why = missingToolchain('python');
    if (why) {
      console.log(`      skipped: ${why}`);
      this.skip();
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'awb-program-'));
    // The sandbox's connections as a user's settings would have them (Export for CI leaves the sandbox out).
    const { json } = connectionsFileFor(connections.map((c) => ({ ...c, name: 'Local', source: 'settings' as const })));
    writeFileSync(path.join(dir, 'connections.json'), JSON.stringify(json));
    const out = path.join(dir, 'tour.py');
    const stderr: string[] = [];
    const status = await exportCommand(
      {
        command: 'export',
        input: path.join(repoRoot(), 'examples', 'sandbox-tour.awb.md'),
        out,
        format: 'python',
        connectionsFile: path.join(dir, 'connections.json'),
      },
      { stdout: { write: () => true }, stderr: { write: (s: string) => (stderr.push(s), true) } },
    );
    assert.equal(status, 0);
    // Plain Python cannot sign or subscribe: the realtime cells are skipped, and said so.
    assert.match(stderr.join(''), /heard: realtime messages are signed or sent over a socket/);
    const code = readFileSync(out, 'utf8');
    assert.match(code, /^# Needs: |Needs: Python 3, requests \(pip install requests\)/m);
    const ran = await runCode('python', code, ENV);
    assert.equal(ran.code, 0, `${ran.stdout}\n${ran.stderr}`);
    assert.match(ran.stdout, /^skipped heard: realtime messages/m);
  });
});
