// `api-workbench check`: the editor's diagnostics for whole notebooks, without sending anything.
// One line per finding (`file:line: severity: message`), exit 1 when any is an error, or one JSON
// document with --json. Offline by design: what only a connection knows (its names, its models) is
// checked only when --connections or --sandbox says what they are.
import { notebookDiagnostics, SpecCatalogueCache, withNotebookSpec, type ContextSources, type ModelOffer, type NotebookFinding } from '../catalogue';
import { SANDBOX_CONNECTION_NAME } from '../notebook/api';
import { ModelCatalogue } from '../sandbox/llm/models';
import type { CheckArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { notebookFiles } from './files';
import type { LineSink } from './progress';
import { readTextFile } from './textFile';

export interface CheckReport {
  files: string[];
  findings: Array<NotebookFinding & { file: string }>;
  errors: number;
}

/** What --connections and --sandbox tell about the connections (nothing without them). */
function knownConnections(args: CheckArgs): Pick<ContextSources, 'connectionNames' | 'models'> {
  if (args.sandbox) {
    const models: ModelOffer[] = new ModelCatalogue().list().map((m) => ({ id: m.id }));
    return {
      connectionNames: () => [SANDBOX_CONNECTION_NAME],
      models: (service) => (service === 'llm' ? models : undefined),
    };
  }
  if (args.connectionsFile) {
    const file = loadConnectionsFile(args.connectionsFile);
    return { connectionNames: (service) => file.connections.filter((c) => c.service === service).map((c) => c.name) };
  }
  return {};
}

export async function checkNotebooks(args: CheckArgs): Promise<CheckReport> {
  const files = notebookFiles(args.paths);
  const sources: ContextSources = { ...knownConnections(args), extraVariables: Object.keys(args.variables) };
  const findings: CheckReport['findings'] = [];
  // A notebook naming an OpenAPI document (vars `spec = ./openapi.yaml`) has its http cells checked against it.
  const specs = new SpecCatalogueCache();
  for (const file of files) {
    const text = readTextFile(file, 'notebook');
    for (const f of notebookDiagnostics(text, file, await withNotebookSpec(text, file, sources, specs))) findings.push({ file, ...f });
  }
  return { files, findings, errors: findings.filter((f) => f.severity === 'error').length };
}

export async function checkCommand(args: CheckArgs, io: { stdout: LineSink; stderr: LineSink }): Promise<number> {
  const report = await checkNotebooks(args);
  if (args.json) {
    io.stdout.write(`${JSON.stringify({ files: report.files, findings: report.findings }, null, 2)}\n`);
  } else {
    for (const f of report.findings) io.stdout.write(`${f.file}:${f.line}: ${f.severity}: ${f.message}\n`);
    const others = report.findings.length - report.errors;
    // The tally goes to stderr: stdout is the findings alone, one per line, for tools to read.
    io.stderr.write(
      `${report.files.length} notebook${report.files.length === 1 ? '' : 's'} checked: ${report.errors} error${report.errors === 1 ? '' : 's'}, ${others} other finding${others === 1 ? '' : 's'}\n`,
    );
  }
  return report.errors > 0 ? 1 : 0;
}
