// Readable filler for the sandbox's answers: short English sentences about the prompt's key words,
// drawn by a seeded generator so the same request always reads the same, and cut to an exact word
// count because usage, max_tokens and the streaming tests count one word per token.

/** Words too common to say what a prompt is about. */
const STOP_WORDS = new Set(
  (
    'the and for you are how why what when where which who whom can could would should will shall may might must ' +
    'this that these those with from into onto about above below over under than then them they their there here ' +
    "have has had does did doing done was were been being its it’s it's not but all any some more most much many " +
    'very just also only even such your yours our ours his her hers him she he we me my mine out off too use using ' +
    'please tell give make show explain write let get got one two way like want need know say said'
  ).split(' '),
);

const MAX_KEY_WORDS = 3;
const KEY_WORD_SCAN_CHARS = 2_000;
/** Stand-ins when a prompt has no key words (empty, or only common words): each still one token. */
const FALLBACK_KEY_WORDS = ['this', 'that'];

/**
 * Sentences the body is made of; {a} and {b} are two of the prompt's key words (one token each).
 * The first group always opens the body, and each of its sentences carries multi-byte UTF-8 text
 * (2 and 3 bytes) so every answer makes clients meet characters split across chunks. CJK and emoji
 * come from prompts instead: editors without those fonts would show the sandbox's own text as boxes.
 */
const OPENERS = [
  'Here is a naïve first take on {a}.',
  'Think of {a} as a café menu: pick one thing at a time.',
  'A quick résumé of {a} and {b} follows.',
  'The short path is {a} → {b} → a clear answer.',
  'Like a long Straße, {a} has many stops along the way.',
];

const BODY = [
  'The short version is that {a} depends on context.',
  'Start with {a}, then look at {b}.',
  'Most questions about {a} come down to a few basics.',
  'A common mistake with {a} is moving too fast.',
  'Here is a simple way to think about {a}.',
  '{a} and {b} are closely related.',
  'Try a small example of {a} first.',
  'Check the details of {a} before you rely on it.',
  'In practice, {a} is easier than it looks.',
  'Picture {a} step by step.',
  'If {a} seems unclear, ask a narrower question.',
  'The key idea behind {a} is balance.',
  'Compare {a} with {b} before you decide.',
  'A naïve approach to {a} works at first, then breaks.',
  'Even a small change to {b} can cost more than €1.',
  'Each step from {a} → {b} should be easy to check.',
  'Writing down what you know about {b} helps.',
];

/** Endings of exactly 1 to 6 words, so any length can be filled without a dangling fragment. */
const CLOSERS = ['Done.', 'That’s all.', 'Hope this helps.', 'That covers the basics.', 'Ask again for more detail.', 'That is the short answer here.'];

const STARTS_SENTENCE = /(^|[.!?]\s+)$/;

/** Up to three distinctive words of `text`, in the order they appear. */
export function keyWords(prompt: string): string[] {
  // The start of a prompt says what it is about; a bound keeps a huge prompt from costing time.
  const text = prompt.slice(0, KEY_WORD_SCAN_CHARS);
  const found: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
    const word = match[0].replace(/['’-]+$/, '');
    const lower = word.toLowerCase();
    if (Array.from(word).length < 3 || STOP_WORDS.has(lower) || /^\p{N}+$/u.test(word)) continue;
    // A capital that only marks the start of a sentence is dropped; names and acronyms keep theirs.
    const sentenceStart = STARTS_SENTENCE.test(text.slice(0, match.index));
    const shown = sentenceStart && word.slice(1) === word.slice(1).toLowerCase() ? lower : word;
    if (!found.some((f) => f.toLowerCase() === lower)) found.push(shown);
    if (found.length === MAX_KEY_WORDS) break;
  }
  return found;
}

function capitalise(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function fill(template: string, words: readonly string[], random: () => number): string[] {
  const a = Math.floor(random() * words.length);
  const b = words.length > 1 ? (a + 1 + Math.floor(random() * (words.length - 1))) % words.length : a;
  const text = template.replace('{a}', words[a]).replace('{b}', words[b]);
  return capitalise(text).split(' ');
}

const WORD_COUNTS = new Map([...OPENERS, ...BODY].map((t) => [t, t.split(' ').length]));
const LONGEST = Math.max(...WORD_COUNTS.values());

function wordCount(template: string): number {
  return WORD_COUNTS.get(template) ?? template.split(' ').length;
}

function pick(pool: readonly string[], left: number, random: () => number): string | undefined {
  // Key words are one token each, so a template's length is known before it is filled.
  const fitting = left >= LONGEST ? pool : pool.filter((t) => wordCount(t) <= left);
  return fitting.length > 0 ? fitting[Math.floor(random() * fitting.length)] : undefined;
}

/**
 * Exactly `count` words of readable sentences about `topic`, the last ending a sentence.
 * The first sentence is an opener (with non-ASCII text) whenever `count` leaves room for one.
 */
export function proseWords(topic: string, count: number, random: () => number): string[] {
  const found = keyWords(topic);
  const words = found.length > 0 ? found : FALLBACK_KEY_WORDS;
  const out: string[] = [];
  const opener = pick(OPENERS, count, random);
  if (opener) out.push(...fill(opener, words, random));
  // No sentence repeats until every one has been said; the shortest body sentence is shorter than
  // the longest closer plus one, so while more than a closer is left, some sentence always fits.
  let unsaid: string[] = [];
  while (count - out.length > CLOSERS.length) {
    const left = count - out.length;
    if (unsaid.length === 0 || (left < LONGEST && !unsaid.some((t) => wordCount(t) <= left))) unsaid = [...BODY];
    const sentence = pick(unsaid, left, random) ?? BODY[0];
    unsaid.splice(unsaid.indexOf(sentence), 1);
    out.push(...fill(sentence, words, random));
  }
  const left = count - out.length;
  if (left > 0) out.push(...CLOSERS[left - 1].split(' '));
  return out;
}
