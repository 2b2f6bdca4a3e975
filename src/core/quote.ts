// User text quoted in a message, cut to a size a terminal can show: a 10 MB fence info line or
// request line is quoted by its start, not printed whole.
import { errorText } from './errors';

/** How much of a user's text a message quotes. */
export const QUOTE_CHARS = 200;

/** `text` on one line, cut to QUOTE_CHARS with an ellipsis saying it was cut. */
export function quoteCut(text: string, max = QUOTE_CHARS): string {
  const line = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = line.replace(/[\r\n]+/g, ' ');
  return flat.length > max || line !== text ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A JSON.parse error without the piece of the input V8 quotes ('Unexpected token 's', "{"a":
 * sk-live-ab"... is not valid JSON'): that piece may be a key in the file.
 */
export function jsonErrorText(e: unknown): string {
  return errorText(e).replace(/,\s*(?:\.\.\.)?".*"(?:\.\.\.)?\s*is not valid JSON$/s, ': not valid JSON');
}
