// The sandbox as a judge. It cannot understand a rubric, so it applies a rule anyone can predict
// and that can fail: a structured-output request whose schema asks for a `verdict` (pass/fail) and
// a `reason`, whose last user message has a "Rubric:" and an "Answer:" section, passes when at
// least half of the rubric's content words (4+ letters, minus words every rubric uses such as
// "should" or "mention") appear in the answer. The reason names the words found and missing.
import { messageText, type SandboxMessage } from './answer';

/** Words of a rubric that say how to judge, not what to look for. */
const RUBRIC_WORDS = new Set([
  'about',
  'answer',
  'answers',
  'does',
  'from',
  'give',
  'gives',
  'have',
  'include',
  'includes',
  'into',
  'mention',
  'mentions',
  'must',
  'only',
  'response',
  'says',
  'should',
  'that',
  'their',
  'there',
  'this',
  'with',
  'without',
]);

const SECTIONS = /Rubric:\s*([\s\S]*?)\n\s*\n\s*Answer:\s*([\s\S]*)$/;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function isVerdictSchema(schema: Readonly<Record<string, unknown>> | undefined): boolean {
  const props = schema?.properties;
  if (typeof props !== 'object' || props === null) return false;
  const verdict = (props as Record<string, unknown>).verdict as { enum?: unknown } | undefined;
  return Array.isArray(verdict?.enum) && verdict.enum.includes('pass') && verdict.enum.includes('fail') && 'reason' in props;
}

/** The sandbox's verdict as JSON text, or undefined when the request is not a judge's. */
export function sandboxVerdict(messages: readonly SandboxMessage[], schema: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!isVerdictSchema(schema)) return undefined;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const sections = last ? SECTIONS.exec(messageText(last)) : null;
  if (!sections) return undefined;
  const wanted = [...new Set(words(sections[1]).filter((w) => w.length >= 4 && !RUBRIC_WORDS.has(w)))];
  const said = new Set(words(sections[2]));
  const found = wanted.filter((w) => said.has(w));
  const missing = wanted.filter((w) => !said.has(w));
  const pass = wanted.length > 0 && found.length * 2 >= wanted.length;
  const reason =
    wanted.length === 0
      ? 'The rubric names nothing to look for (the sandbox judges by the rubric’s words of 4 or more letters).'
      : `The answer has ${found.length} of the rubric’s ${wanted.length} words${found.length ? ` (${found.join(', ')})` : ''}${
          missing.length ? `; missing: ${missing.join(', ')}` : ''
        }. The sandbox passes an answer with at least half of them.`;
  return JSON.stringify({ verdict: pass ? 'pass' : 'fail', reason });
}
