// What every importer returns, and the one error they throw. A key found in imported text is
// never written into the notebook: it comes back in `secrets` for a front end to offer storing.
import type { ServiceId } from '../../core/connections';

/** A connection's base URL the importer maps to a service (e.g. the local sandbox). */
export interface KnownConnection {
  service: ServiceId;
  baseUrl: string;
  /** The connection's name: written as `connection="<name>"` when the service has several. */
  name?: string;
}

export interface ImportOptions {
  /** Extra base URLs (sandbox, proxies) whose requests become cells of that service. */
  connections?: readonly KnownConnection[];
  /** Shown in errors: the file name, or "stdin". */
  source?: string;
}

/** A key found in what was imported; never written into the notebook. */
export interface ImportedSecret {
  /** The service whose host it was sent to; undefined when the host is none of ours. */
  service?: ServiceId;
  /** Where it was sent ('' when it was a variable of unknown use). */
  origin: string;
  header?: string;
  param?: string;
  /** A JSON or form field of the body. */
  field?: string;
  /** A variable (`.http` file variable, Postman variable) that held it. */
  variable?: string;
  /** Sent as the URL's `user:password@`. */
  userinfo?: boolean;
  /** The name an `http` cell reads it by (`{{$secret <name>}}`): store it under that name. */
  secretName?: string;
  value: string;
}

export interface ImportResult {
  /** The new notebook (`*.awb.md`). */
  text: string;
  secrets: ImportedSecret[];
  /** One line per thing moved, dropped or kept as Markdown; never contains a key. */
  report: string[];
}

/** Malformed input: names the source and the line or field; nothing is written. */
export class ImportError extends Error {
  constructor(
    readonly source: string,
    /** "line 3" or "field info.schema". */
    readonly where: string,
    readonly detail: string,
  ) {
    super(`${source}: ${where}: ${detail}`);
    this.name = 'ImportError';
  }
}
