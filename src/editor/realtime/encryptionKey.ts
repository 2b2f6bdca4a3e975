import vscode from 'vscode';
import type { RealtimeConnection } from '../../core/connections';
import { masterKeyProblem } from '../../services/realtime/encryption';
import { channelKind } from '../../services/realtime/protocol';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import type { Services } from '../services';
import { asRealtime } from './sessions';

/**
 * What Publish hands the REST client: on an encrypted channel the JSON value itself, so the box
 * holds `{"a":1}` as when an app calls pusher.trigger(channel, event, {a: 1}) (the library
 * JSON-encodes the payload before boxing, so a JSON *string* would arrive double-encoded);
 * elsewhere the text as typed.
 */
export function encryptedPayload(channel: string, data: string): unknown {
  if (channelKind(channel) !== 'private-encrypted') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

export interface SetMasterKeyInput {
  connection?: string;
  /** Base64 of 32 bytes; '' removes the stored key. */
  value?: string;
  /** Asked during Add Connection: Escape or empty just skips. */
  optional?: boolean;
}

/**
 * "Set Encryption Master Key…": the key of private-encrypted- channels, kept in SecretStorage with
 * the connection (never in settings). Subscribing decrypts with it, publishing encrypts with it.
 */
export function encryptionKeyCommands(s: Services, onChanged: (conn: RealtimeConnection) => void): CommandTable {
  return {
    'apiWorkbench.realtime.setEncryptionMasterKey': async (arg?: unknown): Promise<'stored' | 'removed' | undefined> => {
      const input: SetMasterKeyInput = arg && typeof arg === 'object' && !('conn' in arg) ? arg : {};
      const conn = asRealtime(connectionFromArg(s, 'realtime', input.connection ?? arg) ?? s.connections.active('realtime'));
      if (!conn) throw new Error('No realtime connection: add one first.');
      const had = (await s.secrets.getAux(conn, 'encryptionMasterKey')) !== undefined;
      const value =
        input.value ??
        (await vscode.window.showInputBox({
          title: `${conn.name}: encryption master key`,
          prompt: `For private-encrypted- channels: 32 random bytes in base64 (e.g. the output of "openssl rand -base64 32"), the same your server library uses. Stored in SecretStorage only.${input.optional ? ' Leave empty to skip.' : had ? ' Leave empty to remove the stored one.' : ''}`,
          password: true,
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() === '' ? undefined : masterKeyProblem(v.trim())),
        }));
      if (value === undefined) return undefined;
      const trimmed = value.trim();
      if (trimmed === '') {
        if (input.optional || !had) return undefined;
        await s.secrets.clearAux(conn, 'encryptionMasterKey');
        onChanged(conn);
        void vscode.window.showInformationMessage(`Removed the encryption master key of "${conn.name}".`);
        return 'removed';
      }
      const problem = masterKeyProblem(trimmed);
      if (problem) throw new Error(`Not stored: ${problem}.`);
      await s.secrets.setAux(conn, 'encryptionMasterKey', trimmed);
      onChanged(conn);
      if (!input.optional)
        void vscode.window.showInformationMessage(
          `Stored the encryption master key of "${conn.name}" in SecretStorage. Subscribe again to encrypted channels to use it.`,
        );
      return 'stored';
    },
  };
}
