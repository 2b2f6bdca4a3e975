// The OpenAPI fixtures (documents written for the project) copied where a test imports or runs them.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../cli/cliKit';

export const FIXTURES = path.resolve(__dirname, '../../../../test/unit/openapi/fixtures');

/** A temp folder holding the given fixtures. */
export function withFixtures(...names: string[]): string {
  const dir = tempDir();
  for (const n of names) copyFileSync(path.join(FIXTURES, n), path.join(dir, n));
  return dir;
}
