// `npm run test:editor`: the in-editor suite inside a real VS Code (code-server + Debian Chromium).
//   node out/test/editor/runInCodeServer.js [options]
//     --editor <oldest|newest>    which code-server build (scripts/editor-hosts.json; default oldest,
//                                 VS Code 1.100, the engines.vscode floor)
//     --untrusted                 open the workspace in restricted mode (Workspace Trust on)
//     --workspace <dir>           folder to open (default: a fresh sample folder)
//     --suite <index.js>          compiled suite module (default out/test/editor/suite/index.js)
//     --install-extension <vsix>  install into the fresh extensions dir first (repeatable)
//     --no-dev-extension          do not load the checkout as extensionDevelopmentPath (with a .vsix)
//     --screenshots               take the suite's screenshots (also SCREENSHOTS=1; without either,
//                                 none are taken and the workbench is not given time to settle)
//     --screenshots-dir <dir>     where suite screenshots go (default out/screenshots; the README's
//                                 are refreshed with `npm run screenshots` into media/screenshots)
//     --grep <pattern>            only tests whose full title matches
//     --shard <i/n>               only the i-th of n slices of the suite's files (n editors side by side)
//     --timeout <seconds>         whole run (default 480, or API_WORKBENCH_TEST_TIMEOUT_S)
//     --keep                      keep the temp run folder even when everything passed
//     --summary <file>            also write the outcome as JSON (scripts/test.mjs reads it)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { editorHost } from './harness/paths';
import { runSuite, type RunSuiteOptions } from './harness/runSuite';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      editor: { type: 'string' },
      untrusted: { type: 'boolean' },
      workspace: { type: 'string' },
      suite: { type: 'string' },
      'install-extension': { type: 'string', multiple: true },
      'no-dev-extension': { type: 'boolean' },
      screenshots: { type: 'boolean' },
      'screenshots-dir': { type: 'string' },
      grep: { type: 'string' },
      shard: { type: 'string' },
      timeout: { type: 'string' },
      keep: { type: 'boolean' },
      summary: { type: 'string' },
      label: { type: 'string' },
    },
    strict: true,
  });
  if (values.shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(values.shard)) throw new Error(`--shard takes i/n (1 ≤ i ≤ n), got ${values.shard}`);
  const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutS !== undefined && !(timeoutS > 0)) throw new Error(`--timeout must be a positive number of seconds, got ${values.timeout}`);
  const editor = editorHost(values.editor);
  const opts: RunSuiteOptions = {
    editorHost: editor.id,
    trusted: !values.untrusted,
    label: values.label ?? (values.untrusted ? 'untrusted' : 'editor'),
    ...(values.workspace ? { workspace: values.workspace } : {}),
    ...(values.suite ? { suitePath: values.suite } : {}),
    ...(values['install-extension'] ? { installExtensions: values['install-extension'] } : {}),
    ...(values['no-dev-extension'] ? { extensionPath: null } : {}),
    ...(values.screenshots ? { screenshots: true } : {}),
    ...(values['screenshots-dir'] ? { screenshotsDir: values['screenshots-dir'] } : {}),
    ...(values.grep ? { grep: values.grep } : {}),
    ...(values.shard ? { shard: values.shard } : {}),
    ...(timeoutS ? { timeoutMs: timeoutS * 1000 } : {}),
    ...(values.keep ? { keepDirs: true } : {}),
  };
  const outcome = await runSuite(opts);
  if (values.summary) writeFileSync(values.summary, JSON.stringify(outcome, null, 2));
  console.log(
    // outcome.editor.vscode is what the extension host reported (runSuite fails the run if it is not the listed one).
    `[${outcome.label}] on VS Code ${outcome.editor?.vscode ?? editor.vscode} (code-server ${editor.codeServer}): ${outcome.passed} passed, ${outcome.failed} failed${outcome.pending ? `, ${outcome.pending} pending` : ''} in ${(outcome.durationMs / 1000).toFixed(1)} s`,
  );
  if (values.grep && outcome.selected === 0) {
    // A filter that matches nothing must not pass as a green run of zero tests.
    console.log(`[${outcome.label}] --grep ${JSON.stringify(values.grep)} selected no test`);
    return 1;
  }
  return outcome.failed === 0 ? 0 : 1;
}

// Ctrl-C: runSuite's process-exit hook kills the code-server process group; Chromium is Playwright's child.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
