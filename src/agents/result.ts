// What every tool call hands back, whichever front end asked: text an agent reads and the same
// facts as structured data, both passed through the redactor, the text cut to a stated size.
import { errorText } from '../core/errors';
import type { Redactor } from '../core/redact';
import { redactTree } from '../core/redactTree';

export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

export interface ToolResult {
  text: string;
  structured?: Record<string, unknown>;
  /** The call failed or was refused; `text` says why and what to do. */
  isError: boolean;
}

/** `text` cut to `max` characters, saying so (and how much was left out) at the cut. */
export function clip(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return {
    text: `${text.slice(0, max)}\n… (truncated: ${max.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters shown)`,
    truncated: true,
  };
}

export function finish(out: ToolOutput, redactor: Redactor, maxChars: number): ToolResult {
  return { text: clip(redactor.text(out.text), maxChars).text, structured: redactTree(out.structured, redactor), isError: false };
}

export function failure(e: unknown, redactor: Redactor, maxChars: number): ToolResult {
  return { text: clip(redactor.text(errorText(e)), maxChars).text, isError: true };
}
