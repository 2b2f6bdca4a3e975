// A notebook as a program: one cell's code. A request goes through the program's `send` (requests,
// fetch) or, in the SDK formats, through the openai SDK where it has the call; a realtime cell
// through Pusher's SDKs. Everything else, and every cell that reads an answer the program does not
// have, is a comment and a printed "skipped" line.
import type { RealtimeConnection } from '../../core/connections';
import { analyseCell, cellRequest, type CurlVariables, type ExportOptions, type ExportedRequest, type NotebookCellData } from '../../notebook/api';
import { Code, JAVASCRIPT, jsCall, literal, pyCall } from './literals';
import { asciiMarkers } from './envRefs';
import { bodyFields, clientOf, jsClient, JS_METHOD, openAiCall, PY_METHOD, pythonClient } from './openaiSdk';
import { checkLines } from './programChecks';
import { filled, jsonSource, textSource, type ProgramLanguage, type References } from './programValues';
import { billedSkuLine, withKey } from './snippet';

/** What a program needs, collected while its cells are written. */
export interface ProgramContext {
  language: ProgramLanguage;
  sdk: boolean;
  vars: CurlVariables;
  refs: References;
  targets: ExportOptions;
  realtime?: RealtimeConnection;
  /** Cell name → the variable holding its answer (cells written so far). */
  variables: Map<string, string>;
  /** Cells the program skips, by name: a cell reading one of them is skipped too. */
  skippedCells: Set<string>;
  /** JavaScript: LISTEN cells whose answer arrives later, by name, and whether it has been awaited. */
  listens: Map<string, boolean>;
  /** What the program imports and defines: send, openai, pusher, listen. */
  uses: Set<'send' | 'openai' | 'pusher' | 'listen'>;
  /** The openai clients, by their settings (JSON), and the lines making them. */
  clients: Map<string, { variable: string; line: string; azure: boolean }>;
  /** Environment variables the SDKs read by themselves (the rest are read in the code). */
  implicitEnv: Set<string>;
}

export type CellCode = { lines: string[] } | { skipped: string };

const comment = (language: ProgramLanguage) => (language === 'python' ? '#' : '//');

/** The openai client a request's connection needs, made once per connection. */
function openAiClient(ctx: ProgramContext, req: ExportedRequest): string {
  const settings = clientOf(req);
  const id = JSON.stringify(settings);
  const made = ctx.clients.get(id);
  if (made) return made.variable;
  const variable = ctx.clients.size === 0 ? 'client' : `client${ctx.clients.size + 1}`;
  const line =
    ctx.language === 'python'
      ? pythonClient(settings).line.replace(/^client = /, `${variable} = `)
      : jsClient(settings).line.replace(/^const client = /, `const ${variable} = `);
  if (!settings.apiKeyVar) ctx.implicitEnv.add(req.envVar);
  ctx.clients.set(id, { variable, line, azure: settings.azure !== undefined });
  return variable;
}

/** A request through the openai SDK, or undefined when the SDK has no such call. */
function sdkRequest(ctx: ProgramContext, req: ExportedRequest, label: string, variable: string): string | undefined {
  const call = openAiCall(req);
  if (!call) return undefined;
  let fields: Array<[string, unknown]>;
  try {
    fields = bodyFields(req, ctx.language, ctx.refs);
  } catch {
    // Not a JSON object: the SDK takes fields, so the request goes as it is written.
    return undefined;
  }
  ctx.uses.add('openai');
  const client = openAiClient(ctx, req);
  if (ctx.language === 'python') {
    const method = call === 'models' ? 'client.models.list' : PY_METHOD[call];
    const raw = method.replace(/^client\./, `${client}.`).replace(/\.(\w+)$/, '.with_raw_response.$1');
    return `${variable} = ${pyCall('sdk_call', [['cell', label], ['method', new Code(raw)], ...fields], 0, variable.length + 3)}`;
  }
  const method = (call === 'models' ? 'client.models.list' : JS_METHOD[call]).replace(/^client\./, `${client}.`);
  return awaitedCall(variable, 'sdkCall', label, (depth, lead) =>
    call === 'models' ? `${method}()` : jsCall(method, Object.fromEntries(fields), depth, lead, 1),
  );
}

/** `const v = await fn("label", <request>);` as prettier lays it out: on one line, else one argument a line. */
function awaitedCall(variable: string, fn: string, label: string, request: (depth: number, lead: number) => string): string {
  const head = `const ${variable} = await ${fn}(${JSON.stringify(label)}, `;
  const flat = `${head}${request(0, head.length)});`;
  if (!flat.includes('\n') && flat.length <= JAVASCRIPT.width) return flat;
  return `const ${variable} = await ${fn}(\n  ${JSON.stringify(label)},\n  ${request(1, 2)},\n);`;
}

/** A request through the program's own `send` (requests or fetch). */
function plainRequest(ctx: ProgramContext, req: ExportedRequest, label: string, variable: string): string {
  ctx.uses.add('send');
  const { url, headers } = withKey(req);
  const headerValues = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, textSource(ctx.language, ctx.refs, v)]));
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  // cellRequest filled the variables in already: what is left are markers (envRefs.ts, programValues.ts).
  const body = req.body === undefined ? undefined : asciiMarkers(req.body);
  const json = body !== undefined && /json/i.test(contentType) ? jsonSource(ctx.language, ctx.refs, body) : undefined;
  const urlValue = textSource(ctx.language, ctx.refs, url);
  if (ctx.language === 'python') {
    const args: Array<[string, unknown]> = [
      ['cell', label],
      ['method', req.method],
      ['url', urlValue],
      ['headers', headerValues],
    ];
    if (json !== undefined) args.push(['payload', json]);
    else if (body !== undefined) args.push(['body', textSource(ctx.language, ctx.refs, body)]);
    return `${variable} = ${pyCall('send', args, 0, variable.length + 3)}`;
  }
  const arg: Record<string, unknown> = { cell: label, method: req.method, url: urlValue, headers: headerValues };
  const stringify = 'JSON.stringify(';
  if (json !== undefined) arg.body = new Code(`${stringify}${literal(JAVASCRIPT, json, 1, '  body: '.length + stringify.length, 2)})`);
  else if (body !== undefined) arg.body = textSource(ctx.language, ctx.refs, body);
  const head = `const ${variable} = await `;
  return `${head}${jsCall('send', arg, 0, head.length, 1)};`;
}

/** A JSON text (or, when not JSON, the text) as a value. */
function dataValue(ctx: ProgramContext, text: string): unknown {
  const t = filled(text, ctx.vars, ctx.refs);
  return jsonSource(ctx.language, ctx.refs, t) ?? textSource(ctx.language, ctx.refs, t);
}

/** `fn(a, b, {…})`: the last argument hugged, as prettier lays out a call ending in an object. */
function jsArguments(fn: string, values: unknown[], depth: number, lead: number): string {
  const first = values.slice(0, -1).map((v) => literal(JAVASCRIPT, v));
  const head = `${fn}(${first.map((f) => `${f}, `).join('')}`;
  return `${head}${literal(JAVASCRIPT, values.at(-1), depth, lead + head.length, 1)})`;
}

/** PUBLISH, BATCH (Pusher's server SDK) and LISTEN (pusher-js; JavaScript only). */
function realtimeLines(ctx: ProgramContext, cell: NotebookCellData, label: string, variable: string): string[] | string {
  if (!ctx.sdk) return "realtime messages are signed or sent over a socket: export as python-sdk or javascript-sdk (Pusher's SDKs) to run it";
  if (!ctx.realtime) return 'no realtime connection is known: export with --connections naming one, or from the editor with one set up';
  const { spec, assertions } = analyseCell(cell, 1);
  const text = (s: string) => textSource(ctx.language, ctx.refs, filled(s, ctx.vars, ctx.refs));
  const py = ctx.language === 'python';
  if (spec?.kind === 'listen') {
    if (py) return 'Pusher has no Python client for subscribing: export as javascript-sdk (pusher-js) to run this LISTEN';
    ctx.uses.add('listen');
    ctx.listens.set(cell.metadata.attributes?.name ?? variable, false);
    const checks = checkLines('javascript', label, variable, assertions, ctx.vars, ctx.refs);
    return [
      `const ${variable}Listening = await listen(${JSON.stringify(label)}, listener, ${literal(JAVASCRIPT, text(spec.channel))}, ${spec.durationMs});`,
      'later.push(',
      `  ${variable}Listening.done.then((${variable}) => {`,
      ...checks.flatMap((c) => c.split('\n').map((l) => `    ${l}`)),
      '  }),',
      ');',
    ];
  }
  const publish = spec?.kind === 'publish';
  if (!publish && !(spec?.kind === 'realtimeRest' && spec.op === 'batch')) return 'only PUBLISH, BATCH and LISTEN realtime cells are written as code';
  ctx.uses.add('pusher');
  const checks = checkLines(ctx.language, label, variable, assertions, ctx.vars, ctx.refs);
  if (py) {
    const args: Array<[string, unknown]> =
      spec.kind === 'publish'
        ? [
            ['method', new Code('pusher_client.trigger')],
            ['channels', text(spec.channel)],
            ['event_name', text(spec.event)],
            ['data', dataValue(ctx, spec.data)],
          ]
        : [
            ['method', new Code('pusher_client.trigger_batch')],
            ['batch', dataValue(ctx, spec.body ?? '[]')],
          ];
    return [`${variable} = ${pyCall('pusher_call', [['cell', label], ...args], 0, variable.length + 3)}`, ...checks];
  }
  const request = (depth: number, lead: number) =>
    spec.kind === 'publish'
      ? jsArguments('pusherClient.trigger', [text(spec.channel), text(spec.event), dataValue(ctx, spec.data)], depth, lead)
      : jsArguments('pusherClient.triggerBatch', [dataValue(ctx, spec.body ?? '[]')], depth, lead);
  return [awaitedCall(variable, 'pusherCall', label, request), ...checks];
}

/** One code cell as program lines, or why the program skips it. */
export function cellCode(ctx: ProgramContext, cell: NotebookCellData, label: string, variable: string): CellCode {
  if (cell.kind !== 'code' || cell.language === 'vars') return { lines: [] };
  ctx.refs.read.clear();
  const analysed = analyseCell(cell, 1);
  if (analysed.scripts.length) return { skipped: 'its script blocks ({% %}) run only in API Workbench' };
  let lines: string[];
  if (cell.language === 'realtime') {
    const written = realtimeLines(ctx, cell, label, variable);
    if (typeof written === 'string') return { skipped: written };
    lines = written;
  } else {
    const req = cellRequest(cell, ctx.targets, ctx.vars, ctx.refs.known);
    if (!req) return { skipped: `a ${cell.language} cell that is not a request has no program form` };
    const call = (ctx.sdk && sdkRequest(ctx, req, label, variable)) || plainRequest(ctx, req, label, variable);
    const sku = billedSkuLine(req);
    lines = [...(sku ? [`${comment(ctx.language)} ${sku}`] : []), call, ...checkLines(ctx.language, label, variable, analysed.assertions, ctx.vars, ctx.refs)];
  }
  const missing = [...ctx.refs.read].find((name) => ctx.skippedCells.has(name));
  if (missing) return { skipped: `it reads the answer of cell "${missing}", which the program skips` };
  // A LISTEN's answer arrives when its time is up: a cell reading it waits for it there.
  const waits = [...ctx.refs.read].filter((name) => ctx.listens.get(name) === false);
  for (const name of waits) ctx.listens.set(name, true);
  const awaited = waits.map((name) => `const ${ctx.variables.get(name)} = await ${ctx.variables.get(name)}Listening.done;`);
  return { lines: [...awaited, ...lines] };
}
