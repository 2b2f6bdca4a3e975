// VS Code's own proxy and certificate settings (http.proxy, http.noProxy, http.proxyStrictSSL,
// http.proxyAuthorization, http.systemCertificates) handed to core/net. The extension bundles its
// own undici and ws, which VS Code's proxy support does not reach: without this they would
// ignore the user's proxy. Read at activation and again whenever an http.* setting changes.
import * as vscode from 'vscode';
import { errorText } from '../core/errors';
import { configureNetwork } from '../core/net/network';
import { DIRECT, editorHttpSettingsSchema, netSettingsFromEditor, proxySecrets } from '../core/net/settings';
import type { Redactor } from '../core/redact';
import { validate } from '../core/validate';
import type { DiagnosticsLog } from './log';

const KEYS = ['proxy', 'noProxy', 'proxyStrictSSL', 'proxyAuthorization', 'systemCertificates'] as const;

function applyHttpSettings(redactor: Redactor, log: DiagnosticsLog): void {
  const http = vscode.workspace.getConfiguration('http');
  const raw = Object.fromEntries(KEYS.map((k) => [k, http.get<unknown>(k)]));
  const read = validate(editorHttpSettingsSchema, raw);
  if (!read.ok) {
    log.warn(`The http.* proxy settings could not be read (${read.problem}); requests go without a proxy.`);
    return;
  }
  try {
    const settings = netSettingsFromEditor(read.value, process.env);
    for (const secret of proxySecrets(settings)) redactor.addSecret(secret);
    configureNetwork(settings);
  } catch (e) {
    configureNetwork(DIRECT);
    log.warn(`${errorText(e)}; requests go without a proxy until it is fixed.`);
  }
}

export function wireNetworkSettings(redactor: Redactor, log: DiagnosticsLog): vscode.Disposable {
  applyHttpSettings(redactor, log);
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('http')) applyHttpSettings(redactor, log);
  });
}
