// Checked before the first request, like the connections and their keys: every ```http cell's host
// is allowed (--allow-host, "hosts"), every {{$env NAME}} it reads is one the run may read (allowed
// with --allow-env or "env", and not a variable holding a connection's key: envRefusal), and every
// {{$env NAME}} and {{$secret name}} it reads is set. Otherwise the run stops with exit 2 and nothing is sent.
import { envRefusal, hostAllowed, httpCellNeeds, secretEnvName, type EnvPolicy } from '../notebook/runApi';
import { CliError } from './errors';
import type { LoadedNotebook } from './preflight';

export function checkHttpCells(
  notebooks: readonly LoadedNotebook[],
  allowedHosts: readonly string[],
  env: NodeJS.ProcessEnv,
  policy: EnvPolicy,
  environment?: string,
): void {
  const problems: string[] = [];
  for (const nb of notebooks) {
    for (const cell of httpCellNeeds(nb.cells, environment)) {
      if (!hostAllowed(allowedHosts, cell.host)) {
        problems.push(
          `${nb.file}:${cell.line}: this http cell sends to ${cell.host}, which is not allowed: run with --allow-host ${cell.host}, or add it to "hosts" in the --connections file`,
        );
      }
      for (const r of cell.references) {
        const refusal = r.kind === 'env' ? envRefusal(r.name, policy) : undefined;
        if (refusal !== undefined) {
          problems.push(`${nb.file}:${r.line}: ${r.source}: ${refusal}; nothing was sent`);
          continue;
        }
        const variable = r.kind === 'secret' ? secretEnvName(r.name) : r.name;
        if (env[variable] !== undefined && env[variable] !== '') continue;
        problems.push(
          r.kind === 'secret'
            ? `${nb.file}:${r.line}: ${r.source} is read from the environment variable ${variable}, which is not set: set it to the secret`
            : `${nb.file}:${r.line}: ${r.source}: the environment variable ${variable} is not set`,
        );
      }
    }
  }
  if (problems.length) throw new CliError([...new Set(problems)].join('\n'));
}
