import vscode from 'vscode';

/** Read-only reports (Diagnose, Run with Models…): `api-workbench-report:/<n>/<title>.<ext>`. */
export const REPORT_SCHEME = 'api-workbench-report';
/** Reports kept for reopening in a window; older ones show a short note instead. */
const MAX_KEPT = 20;

/**
 * One store per window, though this module is copied into several service bundles (llm, realtime,
 * notebook, foundation): kept on globalThis so there is one provider for the scheme and one map.
 */
interface ReportStore {
  reports: Map<string, string>;
  counter: number;
  registered: boolean;
}
const STORE_KEY = Symbol.for('api-workbench.reportDocuments');
const holder = globalThis as { [STORE_KEY]?: ReportStore };
const store: ReportStore = (holder[STORE_KEY] ??= { reports: new Map(), counter: 0, registered: false });

/**
 * Opens a generated report as a read-only document: an Untitled document would be dirty and ask
 * "save changes?" on close, for text nobody typed. The provider is registered on first use, so
 * activation does not pay for it.
 */
export async function showReport(
  title: string,
  extension: 'md' | 'txt',
  text: string,
  options: vscode.TextDocumentShowOptions = {},
): Promise<vscode.TextDocument> {
  const { reports } = store;
  if (!store.registered) {
    store.registered = true;
    // Lives as long as the window: a closed report reopens from the map while it is kept.
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, {
      provideTextDocumentContent: (uri) => reports.get(uri.path) ?? 'This report is no longer kept: run the command again.\n',
    });
  }
  const safeTitle = title.replace(/[\\/:*?"<>|]+/g, '-');
  const path = `/${++store.counter}/${safeTitle}.${extension}`;
  reports.set(path, text);
  if (reports.size > MAX_KEPT) reports.delete(reports.keys().next().value as string);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: REPORT_SCHEME, path }));
  await vscode.window.showTextDocument(doc, { preview: false, ...options });
  return doc;
}
