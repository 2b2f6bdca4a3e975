// Form uploads (curl -F, Postman formdata) → the multipart body every request cell writes, as
// REST Client and httpYac write it: one part per field, a file part reading `< ./path` (the
// engine puts the file's bytes there, relative to the notebook).

/** The boundary the importer writes (any boundary works; one spelling keeps diffs small). */
export const MULTIPART_BOUNDARY = '----AwbBoundary';

export interface FormPart {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file field's path, as written in the source. */
  file?: string;
  /** The filename sent; by default the file's own name; '' sends the file's text as a plain field. */
  filename?: string;
  contentType?: string;
}

const TYPES_BY_EXTENSION: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  json: 'application/json',
  jsonl: 'application/jsonl',
  txt: 'text/plain',
  csv: 'text/csv',
};

/** `sample.wav` → `./sample.wav`: the cell's `< ` line reads a path relative to the notebook. */
function notebookPath(file: string): string {
  return /^(\.{1,2}\/|\/|~|[A-Za-z]:[\\/])/.test(file) ? file : `./${file}`;
}

function typeOf(file: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  return TYPES_BY_EXTENSION[ext] ?? 'application/octet-stream';
}

/** The Content-Type header and body of a multipart/form-data request. */
export function multipartBody(parts: readonly FormPart[]): { contentType: string; body: string } {
  const lines: string[] = [];
  for (const p of parts) {
    lines.push(`--${MULTIPART_BOUNDARY}`);
    if (p.file !== undefined && p.filename === '') {
      // A text field read from a file (curl's name=<file): no filename, the file's text as the value.
      lines.push(
        `Content-Disposition: form-data; name="${p.name}"`,
        ...(p.contentType ? [`Content-Type: ${p.contentType}`] : []),
        '',
        `< ${notebookPath(p.file)}`,
      );
    } else if (p.file !== undefined) {
      const filename = p.filename ?? p.file.split(/[\\/]/).pop() ?? p.file;
      lines.push(`Content-Disposition: form-data; name="${p.name}"; filename="${filename}"`, `Content-Type: ${p.contentType ?? typeOf(p.file)}`, '');
      lines.push(`< ${notebookPath(p.file)}`);
    } else {
      lines.push(`Content-Disposition: form-data; name="${p.name}"`);
      if (p.contentType) lines.push(`Content-Type: ${p.contentType}`);
      lines.push('', p.value ?? '');
    }
  }
  lines.push(`--${MULTIPART_BOUNDARY}--`);
  return { contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, body: lines.join('\n') };
}

/**
 * curl's `-F` value: `name=value`, `name=@file;type=audio/wav;filename=x.wav` (a file part) or
 * `name=<file` (a text field read from a file).
 */
export function curlFormPart(spec: string, literal: boolean): FormPart | string {
  const eq = spec.indexOf('=');
  if (eq <= 0) return `"${spec}" is not a form field (name=value or name=@file)`;
  const name = spec.slice(0, eq);
  const rest = spec.slice(eq + 1);
  if (literal || !/^[@<]/.test(rest)) return { name, value: rest };
  const [path, ...attrs] = rest.slice(1).split(';');
  const attr = (k: string) =>
    attrs
      .find((a) => a.trim().startsWith(`${k}=`))
      ?.trim()
      .slice(k.length + 1)
      .replace(/^"|"$/g, '');
  if (rest.startsWith('<')) return { name, file: path, filename: '', contentType: attr('type') };
  return { name, file: path, ...(attr('filename') ? { filename: attr('filename') } : {}), ...(attr('type') ? { contentType: attr('type') } : {}) };
}
