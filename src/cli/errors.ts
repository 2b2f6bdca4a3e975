/**
 * The run could not be made (bad arguments, a malformed notebook, an unknown connection, a key
 * variable not set): shown as its message alone, exit code 2. Messages name the file:line, the
 * file and field, or the variable.
 */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
