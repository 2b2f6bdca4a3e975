// The command line, read with node:util parseArgs. Anything wrong here is a usage error (exit 2),
// reported in one line plus a pointer to --help, never a stack trace.
import { parseArgs } from 'node:util';
import { CliError } from './errors';
import { MAX_TIMEOUT_SECONDS } from '../core/connections';
import { errorText } from '../core/errors';
import type { MatrixAxis } from '../features/notebook/matrixTable';
import type { ModelPrice } from '../services/llm';
import { parseShard, type Shard } from './shard';

export type { MatrixAxis };

export type ReporterName = 'pretty' | 'junit' | 'json' | 'html';
const REPORTERS: readonly ReporterName[] = ['pretty', 'junit', 'json', 'html'];

export interface RunArgs {
  command: 'run';
  /** Notebook files and folders, as given. */
  paths: string[];
  sandbox: boolean;
  /** `--model-map alias=model` entries for the built-in sandbox, as given (the sandbox reads them). */
  modelMap: string[];
  connectionsFile?: string;
  reporter: ReporterName;
  out?: string;
  variables: Record<string, string>;
  environment?: string;
  timeoutMs?: number;
  bail: boolean;
  dataFile?: string;
  parallel: number;
  outputFailed: boolean;
  /** Print what cells' scripts logged (console.log, client.log) under each cell. */
  verbose: boolean;
  /** --allow-host: hosts http cells may send to (with the connections file's "hosts"). */
  allowHosts: string[];
  /** --allow-env: environment variables `{{$env NAME}}` may read (with the connections file's "env"). */
  allowEnv: string[];
  /** --proxy: the proxy for every request (else HTTPS_PROXY / HTTP_PROXY / NO_PROXY). */
  proxy?: string;
  /** --ca: PEM files of certificate authorities trusted besides Node's (repeatable). */
  ca: string[];
  /** --matrix: each notebook runs once per combination of the axes' values (their product). */
  matrix: MatrixAxis[];
  /** --judge-model: the model that answers `?? judge:` checks. */
  judgeModel?: string;
  /** --baseline: a previous --reporter json report; checks that passed there and fail now are regressions. */
  baseline?: string;
  /** --shard i/n: run only the i-th of n slices of the jobs. */
  shard?: Shard;
  /** --record <dir>: send every request and keep the answers there. */
  record?: string;
  /** --replay <dir>: send nothing; every answer comes from the recordings there. */
  replay?: string;
  /** --record-missing (with --replay): send and record only what is not recorded yet. */
  recordMissing: boolean;
}

export interface MergeReportsArgs extends Pick<RunArgs, 'reporter' | 'out' | 'baseline' | 'outputFailed' | 'verbose'> {
  command: 'merge-reports';
  /** --reporter json reports of the shards (or of any runs), in any order. */
  inputs: string[];
}

export interface ImportArgs {
  command: 'import';
  /** A .http/.rest file, a Postman collection (.json), or '-' for a cURL command on stdin. */
  input: string;
  /** Where the notebook goes; stdout when absent. */
  out?: string;
  connectionsFile?: string;
}

/** http and curl: requests; the rest: the notebook as one program (src/features/codegen/notebookProgram.ts). */
export type ExportFormat = 'http' | 'curl' | 'python' | 'javascript' | 'python-sdk' | 'javascript-sdk';
const EXPORT_FORMATS: readonly ExportFormat[] = ['http', 'curl', 'python', 'javascript', 'python-sdk', 'javascript-sdk'];

export interface ExportArgs {
  command: 'export';
  /** The notebook (*.awb.md). */
  input: string;
  /** Where the export goes; stdout when absent. */
  out?: string;
  format: ExportFormat;
  connectionsFile?: string;
}

export interface CheckArgs {
  command: 'check';
  /** Notebook files and folders, as given. */
  paths: string[];
  /** --json: the findings as one JSON document, for tools. */
  json: boolean;
  /** Connection names (and, with --sandbox, model ids) are checked only when one of these is given. */
  connectionsFile?: string;
  sandbox: boolean;
  /** --var names count as defined. */
  variables: Record<string, string>;
}

export interface McpArgs extends Pick<RunArgs, 'sandbox' | 'modelMap' | 'connectionsFile' | 'allowHosts' | 'allowEnv' | 'proxy' | 'ca'> {
  command: 'mcp';
  /** Folder run_notebook may run notebooks from (default: the current directory). */
  root?: string;
  /** Without it agents may not publish or change data (realtime_publish, notebooks' writes). */
  allowPublish: boolean;
  /** LLM calls stop once their estimated cost reaches it (USD). */
  budgetUsd?: number;
  /** --price: prices of models the default table lacks (or overrides), USD per 1M tokens. */
  prices?: Record<string, ModelPrice>;
}

export type CliArgs = RunArgs | MergeReportsArgs | ImportArgs | ExportArgs | CheckArgs | McpArgs | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage: api-workbench run <file.awb.md | folder>... [options]

Runs every request cell of each notebook in order (variables flow from cell to cell) and checks
its ?? assertions. Exit code 0: all passed; 1: a cell failed; 2: the run could not be made.

       api-workbench import <file.http | file.rest | collection.json | -> [-o out.awb.md]

import turns a REST Client / httpYac .http file, a Postman collection (v2.1) or a cURL command
read from stdin (-) into a notebook, written to -o (or stdout). What was moved or dropped goes to
stderr; keys found in the input are never written (store them in the connection instead).
With --connections, requests to those connections' base URLs become cells too.

       api-workbench export <file.awb.md> [-o out.http] [--format http|curl|python|javascript|python-sdk|javascript-sdk]

export writes a notebook as a REST Client .http file (default) or its llm and maps cells as cURL
commands, to -o (or stdout); python, javascript and their -sdk forms write one program that runs
the cells in order and exits non-zero when a ?? check fails. The key is read from an environment variable ({{$processEnv
OPENAI_API_KEY}}, "$GOOGLE_MAPS_API_KEY"), never written. With --connections, the first
connection of each service gives the hosts and its "keyEnv" the variable's name.

       api-workbench check <file.awb.md | folder>... [--json] [--connections <file> | --sandbox]

check finds what would fail before anything is sent: undefined variables, malformed JSON
bodies, unknown check subjects, fields the answer or the field mask lacks, a dearer SKU. One line
per finding (file:line: severity: message); exit 1 when one is an error. Offline: connection names
are checked with --connections, and model ids too with --sandbox (the built-in sandbox's models).
--json prints {"files": [...], "findings": [...]} instead.

       api-workbench mcp [--sandbox] [--connections file.json] [--root dir] [--allow-publish] [--budget-usd n] [--price model=in/out]

mcp serves the Model Context Protocol on stdin/stdout, so agents (Claude, Copilot, Cursor, any MCP
client) can use the connections: list_resources, llm_chat, maps_search_places, maps_compute_route,
realtime_publish, realtime_recent_messages and run_notebook. Keys stay out of every result.
  --root <dir>              mcp: run_notebook runs only notebooks inside this folder (default: .)
  --allow-publish           mcp: let agents publish and change data (refused without it):
                            realtime_publish; a notebook's PUBLISH, BATCH, SEND_TO_USER and
                            TERMINATE; and requests other than GET, HEAD and OPTIONS, except model
                            calls and maps queries (an http cell's POST to an allowed host too)
  --budget-usd <n>          mcp: LLM calls (llm_chat, notebooks' llm cells) reserve their worst-case
                            cost before they are sent and are refused once it would pass n US
                            dollars; a model without a known price is refused (give it with --price)
  --price <model=in/out>    mcp: a model's price in US dollars per 1M tokens in and out, e.g.
                            my-ft=0.3/1.2 (repeatable; overrides the built-in table)

       api-workbench merge-reports <shard1.json> <shard2.json>... [--reporter …] [-o out] [--baseline b.json]

merge-reports joins the --reporter json reports of the shards of one run (--shard i/n) into the
report, matrix table, summary and --baseline verdict that one unsharded run would have given. A
shard missing or given twice is an error (exit 2) naming it.

Options:
  --sandbox                 start the built-in sandbox for this run and use it as the default
                            connection of each service (env SANDBOX_LLM_KEY, SANDBOX_MAPS_KEY,
                            SANDBOX_REALTIME_APP_ID, SANDBOX_REALTIME_KEY, SANDBOX_REALTIME_SECRET,
                            SANDBOX_HOST, SANDBOX_REALTIME_DEMO=0 … as for \`npm run sandbox\`)
  --model-map <alias=model> with --sandbox: serve the model id alias (a fine-tune, a local model)
                            as that sandbox model, e.g. my-ft=gpt-4o-mini (repeatable)
  --connections <file>      connections as JSON: {"llm": [...], "maps": [...], "realtime": [...]};
                            the same fields as the editor's settings plus "keyEnv", the environment
                            variable holding the key (realtime: the app secret; and
                            "encryptionMasterKeyEnv", the one holding the master key of
                            private-encrypted- channels). The first of each service is the
                            default; a cell's connection="Name" picks another. "hosts": [...]
                            lists the hosts \`\`\`http cells may send to, as --allow-host
  --reporter <name>         pretty (default), junit, json, or html (one self-contained page: the
                            matrix table, each answer, the judges' reasons, cost; needs --out)
  --matrix <name=a,b,…>     run each notebook once per value, with {{name}} set to it (repeatable:
                            every combination); the report ends with a table of checks × values
                            (pass/fail, latency, tokens, cost), e.g. --matrix model=gpt-4o-mini,gpt-4o
  --judge-model <model>     the model that answers ?? judge: checks (else the notebook's "judge"
                            variable, else the cell's own model)
  --shard <i/n>             run the i-th of n slices of the jobs (notebook × data row × matrix
                            value): n CI jobs given the same options run everything exactly once;
                            join their --reporter json reports with merge-reports
  --record <dir>            send every request and keep each answer (streamed chunks included) in
                            <dir>/<notebook>.json: readable JSON, never a key, token or signature
  --replay <dir>            send nothing: every answer comes from <dir>; a request that is not
                            recorded fails its cell, naming how it differs from the nearest one
  --record-missing          with --replay: send and record only the requests not recorded yet
  --baseline <report.json>  a previous --reporter json report: checks that passed there and fail
                            now are regressions, listed first; the last line says "N regressions"
  -o, --out <file>          import: the notebook to write; export: the file to write; run: write
                            the report to a file (the pretty lines still go to the terminal)
  --format <http|curl|…>    export: a .http file (default), cURL commands, or a program: python,
                            javascript, python-sdk, javascript-sdk
  --var <name=value>        set a variable (repeatable); wins over the notebook's vars cells
  --env <name>              the environment: vars cells marked env=<name> apply
  --timeout <ms>            time limit of each request cell, a streamed answer included
  --bail                    stop at the first failed cell
  --data <rows.json|.csv>   run each notebook once per row, the row's columns as variables
  --parallel <n>            run up to n notebooks side by side (cells of one notebook stay in order)
  --verbose                 print what each cell's scripts logged (console.log, client.log)
  --output-failed           print the whole exchange (request and response, keys masked) of each
                            failed cell
  --allow-host <host>       let \`\`\`http cells send to this host (repeatable; host or host:port;
                            also "hosts": [...] in the --connections file). Every other host, this
                            machine included, is refused before anything is sent. Their
                            {{$secret name}} reads AWB_SECRET_<NAME>
  --allow-env <NAME>        let \`\`\`http cells read this environment variable as {{$env NAME}}
                            (repeatable; also "env": [...] in the --connections file); a variable
                            that holds a connection's key (its keyEnv, the sandbox's keys) never
                            is, allowed or not
  --proxy <url>             send every request through this proxy (http://user:pass@host:port);
                            without it: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case).
                            Loopback hosts (the sandbox) go direct unless NO_PROXY holds <-loopback>
  --ca <file.pem>           also trust this certificate authority (repeatable); NODE_EXTRA_CA_CERTS
                            is read too
  -h, --help                this text
  -v, --version             the version`;

function positiveInt(flag: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new CliError(`${flag} takes a whole number from 1 to ${max.toLocaleString('en-US')}, not "${text}"`);
  }
  return n;
}

/** `api.example.com`, `127.0.0.1:8080`, `[::1]:3000`: what --allow-host and "hosts" take (no scheme, no path). */
export function isHostName(text: string): boolean {
  return /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(text);
}

function parseVariables(entries: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(entry);
    if (!m) throw new CliError(`--var takes name=value (a name of letters, digits, _ and -), not "${entry}"`);
    out[m[1]] = m[2];
  }
  return out;
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        sandbox: { type: 'boolean' },
        'model-map': { type: 'string', multiple: true },
        connections: { type: 'string' },
        reporter: { type: 'string' },
        out: { type: 'string', short: 'o' },
        var: { type: 'string', multiple: true },
        env: { type: 'string' },
        timeout: { type: 'string' },
        bail: { type: 'boolean' },
        data: { type: 'string' },
        parallel: { type: 'string' },
        'output-failed': { type: 'boolean' },
        verbose: { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        'allow-env': { type: 'string', multiple: true },
        proxy: { type: 'string' },
        ca: { type: 'string', multiple: true },
        format: { type: 'string' },
        json: { type: 'boolean' },
        root: { type: 'string' },
        'allow-publish': { type: 'boolean' },
        'budget-usd': { type: 'string' },
        price: { type: 'string', multiple: true },
        matrix: { type: 'string', multiple: true },
        'judge-model': { type: 'string' },
        baseline: { type: 'string' },
        shard: { type: 'string' },
        record: { type: 'string' },
        replay: { type: 'string' },
        'record-missing': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (e) {
    // parseArgs' messages name the option ("Unknown option '--foo'"); that is all the user needs.
    throw new CliError(errorText(e));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command, ...paths] = positionals;
  if (command === undefined) return { command: 'help' };
  if (command === 'import') {
    if (paths.length !== 1) throw new CliError('import takes one file (or - for a cURL command on stdin)');
    return { command: 'import', input: paths[0], out: values.out, connectionsFile: values.connections };
  }
  if (command === 'export') {
    if (paths.length !== 1) throw new CliError('export takes one notebook file');
    const format = values.format ?? 'http';
    if (!EXPORT_FORMATS.includes(format as ExportFormat)) throw new CliError(`--format is one of ${EXPORT_FORMATS.join(', ')}, not "${format}"`);
    return { command: 'export', input: paths[0], out: values.out, format: format as ExportFormat, connectionsFile: values.connections };
  }
  if (command === 'check') return checkArgs(paths, values);
  if (command === 'merge-reports') return mergeArgs(paths, values);
  if (command === 'mcp') return mcpArgs(values, paths);
  if (values.json) throw new CliError('--json is an option of check (run takes --reporter json)');
  for (const flag of ['root', 'allow-publish', 'budget-usd', 'price'] as const)
    if (values[flag] !== undefined) throw new CliError(`--${flag} is an option of mcp`);
  if (values.format !== undefined) throw new CliError('--format is an option of export');
  if (command !== 'run') throw new CliError(`unknown command "${command}": the commands are "run", "check", "import", "export", "merge-reports" and "mcp"`);
  if (paths.length === 0) throw new CliError('run needs at least one notebook file or folder');
  const reporter = values.reporter ?? 'pretty';
  if (!REPORTERS.includes(reporter as ReporterName)) throw new CliError(`--reporter is one of ${REPORTERS.join(', ')}, not "${reporter}"`);
  if (values.env !== undefined && values.env.trim() === '') throw new CliError('--env needs a name');
  if (values['model-map'] && !values.sandbox) throw new CliError('--model-map applies to the built-in sandbox: add --sandbox');
  if (reporter === 'html' && values.out === undefined) throw new CliError('--reporter html writes a page: give the file with --out report.html');
  if (values['judge-model'] !== undefined && values['judge-model'].trim() === '') throw new CliError('--judge-model needs a model id');
  return {
    command: 'run',
    paths,
    sandbox: values.sandbox ?? false,
    modelMap: values['model-map'] ?? [],
    connectionsFile: values.connections,
    reporter: reporter as ReporterName,
    out: values.out,
    variables: parseVariables(values.var ?? []),
    environment: values.env,
    timeoutMs: positiveInt('--timeout', values.timeout, MAX_TIMEOUT_SECONDS * 1000),
    bail: values.bail ?? false,
    dataFile: values.data,
    parallel: positiveInt('--parallel', values.parallel, 64) ?? 1,
    outputFailed: values['output-failed'] ?? false,
    verbose: values.verbose ?? false,
    allowHosts: allowedHosts(values['allow-host']),
    allowEnv: allowedEnv(values['allow-env']),
    proxy: values.proxy,
    ca: values.ca ?? [],
    matrix: parseMatrix(values.matrix ?? []),
    judgeModel: values['judge-model']?.trim(),
    baseline: values.baseline,
    shard: parseShard(values.shard),
    ...cassetteArgs(values),
  };
}

function cassetteArgs(values: { record?: string; replay?: string; 'record-missing'?: boolean }): Pick<RunArgs, 'record' | 'replay' | 'recordMissing'> {
  if (values.record !== undefined && values.replay !== undefined)
    throw new CliError(
      '--record and --replay go apart: --record sends and records everything, --replay sends nothing (add --record-missing to record what is new)',
    );
  if (values['record-missing'] && values.replay === undefined)
    throw new CliError('--record-missing goes with --replay <dir>: it records what that recording lacks');
  for (const [flag, dir] of [
    ['--record', values.record],
    ['--replay', values.replay],
  ] as const)
    if (dir !== undefined && dir.trim() === '') throw new CliError(`${flag} needs a folder`);
  return { record: values.record, replay: values.replay, recordMissing: values['record-missing'] ?? false };
}

function mergeArgs(inputs: string[], values: ParsedValues): MergeReportsArgs {
  if (inputs.length === 0) throw new CliError('merge-reports needs the --reporter json reports to merge (one per shard)');
  for (const flag of ['sandbox', 'connections', 'var', 'env', 'timeout', 'bail', 'data', 'parallel', 'matrix', 'shard', 'format', 'json'])
    if (values[flag] !== undefined) throw new CliError(`--${flag} is not an option of merge-reports (give it to each shard's run)`);
  const reporter = (values.reporter as string | undefined) ?? 'pretty';
  if (!REPORTERS.includes(reporter as ReporterName)) throw new CliError(`--reporter is one of ${REPORTERS.join(', ')}, not "${reporter}"`);
  if (reporter === 'html' && values.out === undefined) throw new CliError('--reporter html writes a page: give the file with --out report.html');
  return {
    command: 'merge-reports',
    inputs,
    reporter: reporter as ReporterName,
    out: values.out as string | undefined,
    baseline: values.baseline as string | undefined,
    outputFailed: values['output-failed'] === true,
    verbose: values.verbose === true,
  };
}

function checkArgs(paths: string[], values: { json?: boolean; connections?: string; sandbox?: boolean; var?: string[] }): CheckArgs {
  if (paths.length === 0) throw new CliError('check needs at least one notebook file or folder');
  if (values.sandbox && values.connections) throw new CliError('check takes --connections or --sandbox, not both');
  return {
    command: 'check',
    paths,
    json: values.json ?? false,
    connectionsFile: values.connections,
    sandbox: values.sandbox ?? false,
    variables: parseVariables(values.var ?? []),
  };
}

function allowedHosts(hosts: readonly string[] | undefined): string[] {
  return (hosts ?? []).map((h) => {
    if (!isHostName(h)) throw new CliError(`--allow-host takes a host name, or host:port (e.g. api.example.com), not "${h}"`);
    return h;
  });
}

function allowedEnv(names: readonly string[] | undefined): string[] {
  return (names ?? []).map((n) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new CliError(`--allow-env takes the name of an environment variable (e.g. GITHUB_TOKEN), not "${n}"`);
    return n;
  });
}

/** parseArgs' values, read by name. */
type ParsedValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

function mcpArgs(values: ParsedValues, positionals: readonly string[]): McpArgs {
  if (positionals.length) throw new CliError(`mcp takes no files (notebooks are named by the agent, inside --root): remove "${positionals.join(' ')}"`);
  const str = (k: string) => values[k] as string | undefined;
  const list = (k: string) => values[k] as string[] | undefined;
  const budgetText = str('budget-usd');
  const budgetUsd = budgetText === undefined ? undefined : Number(budgetText);
  if (budgetUsd !== undefined && !(Number.isFinite(budgetUsd) && budgetUsd > 0))
    throw new CliError(`--budget-usd takes an amount of US dollars greater than 0 (e.g. 0.50), not "${budgetText}"`);
  if (list('model-map') && !values.sandbox) throw new CliError('--model-map applies to the built-in sandbox: add --sandbox');
  for (const flag of ['reporter', 'out', 'var', 'env', 'timeout', 'bail', 'data', 'parallel', 'output-failed', 'verbose', 'format'])
    if (values[flag] !== undefined) throw new CliError(`--${flag} is not an option of mcp`);
  return {
    command: 'mcp',
    sandbox: values.sandbox === true,
    modelMap: list('model-map') ?? [],
    connectionsFile: str('connections'),
    root: str('root'),
    allowPublish: values['allow-publish'] === true,
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(list('price') ? { prices: parsePrices(list('price') ?? []) } : {}),
    allowHosts: allowedHosts(list('allow-host')),
    allowEnv: allowedEnv(list('allow-env')),
    proxy: str('proxy'),
    ca: list('ca') ?? [],
  };
}

/** --price entries `model=input/output` (USD per 1M tokens); a malformed one is a usage error. */
function parsePrices(entries: readonly string[]): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const entry of entries) {
    const m = /^\s*([^=\s]+)\s*=\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(entry);
    if (!m) throw new CliError(`--price takes model=input/output in US dollars per 1M tokens (e.g. my-ft=0.3/1.2), not "${entry}"`);
    prices[m[1].toLowerCase()] = { input: Number(m[2]), output: Number(m[3]) };
  }
  return prices;
}

/** `name=a,b` entries; a name given twice, an empty value or a malformed entry is a usage error. */
function parseMatrix(entries: readonly string[]): MatrixAxis[] {
  const axes: MatrixAxis[] = [];
  for (const entry of entries) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(entry);
    const values = m ? m[2].split(',').map((v) => v.trim()) : [];
    if (!m || values.some((v) => v === '')) throw new CliError(`--matrix takes name=value,value (e.g. model=gpt-4o-mini,gpt-4o), not "${entry}"`);
    if (axes.some((a) => a.name === m[1])) throw new CliError(`--matrix ${m[1]} is given twice: list all its values in one --matrix ${m[1]}=a,b`);
    axes.push({ name: m[1], values: [...new Set(values)] });
  }
  return axes;
}
