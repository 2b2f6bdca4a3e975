// JUnit XML, as CI systems read it: a <testsuite> per notebook run (per data row and matrix value), a
// <testcase> per check named `<cell> › <check>` (checks.ts); a failed one has a <failure> with
// expected and actual (a judge's reason too), the error and the request id.
import { failureText, suiteChecks, type CheckRow } from '../../features/notebook/checkRows';
import type { RunSummary, SuiteReport } from './types';

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

function testcase(suite: SuiteReport, row: CheckRow): string {
  const r = row.cell;
  const line = row.assertion?.line ?? r.line;
  // A cell's time is its checks' time too: each check of it reports the cell's duration.
  const attrs = `name="${escapeXml(row.name)}" classname="${escapeXml(suite.name)}" file="${escapeXml(suite.file)}" line="${line}" time="${seconds(r.durationMs)}"`;
  if (row.passed) return `    <testcase ${attrs}/>`;
  const f = failureText(row);
  const type = row.assertion ? 'assertion' : 'error';
  return `    <testcase ${attrs}>\n      <failure message="${escapeXml(f.message)}" type="${type}">${escapeXml(f.details)}</failure>\n    </testcase>`;
}

/** A <testsuite> per notebook run (per data row and matrix value), a <testcase> per check. */
export function junitReport(summary: RunSummary): string {
  const suites = summary.suites.map((s) => ({ suite: s, checks: suiteChecks(s) }));
  const tests = suites.reduce((n, s) => n + s.checks.length, 0);
  const failed = suites.reduce((n, s) => n + s.checks.filter((c) => !c.passed).length, 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="api-workbench" tests="${tests}" failures="${failed}" time="${seconds(summary.durationMs)}">`);
  for (const { suite: s, checks } of suites) {
    const failures = checks.filter((c) => !c.passed).length;
    const errors = s.error ? 1 : 0;
    out.push(
      `  <testsuite name="${escapeXml(s.name)}" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(s.durationMs)}" timestamp="${escapeXml(s.startedAt)}">`,
    );
    for (const c of checks) out.push(testcase(s, c));
    if (s.error) out.push(`    <system-err>${escapeXml(s.error)}</system-err>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
