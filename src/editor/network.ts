// VS Code's own proxy and certificate settings (http.proxy, http.noProxy, http.proxyStrictSSL,
// http.proxyAuthorization, http.systemCertificates) handed to core/net. The extension bundles its
// own undici and ws, which VS Code's proxy support does not reach: without this they would
// ignore the user's proxy. Read when the first request needs them, and again after an http.* setting
// changes.
import vscode from 'vscode';
import { errorText } from '../core/errors';
import { configureNetworkOnFirstUse } from '../core/net/network';
import { DIRECT, editorHttpSettingsSchema, netSettingsFromEditor, proxySecrets, type NetSettings } from '../core/net/settings';
import type { Redactor } from '../core/redact';
import { validate } from '../core/validate';
import type { DiagnosticsLog } from './log';

const KEYS = ['proxy', 'noProxy', 'proxyStrictSSL', 'proxyAuthorization', 'systemCertificates'] as const;

/** The settings as read now; a proxy's credentials join the redactor before any request can log them. */
function readHttpSettings(redactor: Redactor, log: DiagnosticsLog): NetSettings {
  const http = vscode.workspace.getConfiguration('http');
  const raw = Object.fromEntries(KEYS.map((k) => [k, http.get<unknown>(k)]));
  const read = validate(editorHttpSettingsSchema(), raw);
  if (!read.ok) {
    log.warn(`The http.* proxy settings could not be read (${read.problem}); requests go without a proxy.`);
    return DIRECT;
  }
  try {
    const settings = netSettingsFromEditor(read.value, process.env);
    for (const secret of proxySecrets(settings)) redactor.addSecret(secret);
    return settings;
  } catch (e) {
    log.warn(`${errorText(e)}; requests go without a proxy until it is fixed.`);
    return DIRECT;
  }
}

export function wireNetworkSettings(redactor: Redactor, log: DiagnosticsLog): vscode.Disposable {
  const apply = () => configureNetworkOnFirstUse(() => readHttpSettings(redactor, log));
  apply();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('http')) apply();
  });
}
