// JUnit XML, as CI systems read it: a <testsuite> per notebook run, a <testcase> per cell; a failed
// cell has a <failure> with its failing assertions (expected and actual), error and request id.
import type { CellResult } from '../../notebook/api';
import { cellLabel, type RunSummary, type SuiteReport } from './types';

// XML 1.0 allows tab, LF, CR and everything from U+0020 on except surrogate halves and U+FFFE/F.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureText(r: CellResult): { message: string; details: string } {
  const failing = r.assertions.filter((a) => !a.passed);
  const lines: string[] = [];
  for (const a of failing) lines.push(`${a.source} (line ${a.line})`, `  expected: ${a.expected}`, `  actual:   ${a.actual}`);
  if (r.error) lines.push(r.error);
  if (r.response) lines.push(`status: ${r.response.status}`);
  if (r.response?.requestId) lines.push(`request id: ${r.response.requestId}`);
  const message = failing.length
    ? `${failing[0].source}: expected ${failing[0].expected}, actual ${failing[0].actual}`
    : (r.error?.split('\n')[0] ?? `status ${r.response?.status ?? '?'}`);
  return { message, details: lines.join('\n') };
}

function testcase(suite: SuiteReport, r: CellResult): string {
  const attrs = `name="${escapeXml(cellLabel(r))}" classname="${escapeXml(suite.name)}" file="${escapeXml(suite.file)}" line="${r.line}" time="${seconds(r.durationMs)}"`;
  if (r.ok) return `    <testcase ${attrs}/>`;
  const f = failureText(r);
  const type = r.error && !r.assertions.some((a) => !a.passed) ? 'error' : 'assertion';
  return `    <testcase ${attrs}>\n      <failure message="${escapeXml(f.message)}" type="${type}">${escapeXml(f.details)}</failure>\n    </testcase>`;
}

export function junitReport(summary: RunSummary): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="api-workbench" tests="${summary.passed + summary.failed}" failures="${summary.failed}" time="${seconds(summary.durationMs)}">`);
  for (const s of summary.suites) {
    const failures = s.cells.filter((c) => !c.ok).length;
    const errors = s.error ? 1 : 0;
    out.push(
      `  <testsuite name="${escapeXml(s.name)}" tests="${s.cells.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(s.durationMs)}" timestamp="${escapeXml(s.startedAt)}">`,
    );
    for (const c of s.cells) out.push(testcase(s, c));
    if (s.error) out.push(`    <system-err>${escapeXml(s.error)}</system-err>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
