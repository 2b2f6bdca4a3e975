// Big notebook files that are hard on the parser: a 2 MB single line, nothing but NULs, and
// thousands of fences (backticks and tildes). The fuzz suite checks they round-trip byte for byte;
// `npm run bench` (notebook parser) times them against a goal.
export const HOSTILE_NOTEBOOKS: readonly string[] = [
  'x'.repeat(2_000_000),
  '\0'.repeat(200_000),
  '```llm\n'.repeat(20_000),
  '`'.repeat(500_000),
  '~~~\n```\n'.repeat(10_000),
];
