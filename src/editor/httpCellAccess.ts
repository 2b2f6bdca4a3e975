// What the editor decides for ```http cells (requests to any API, with no stored key): which hosts a
// notebook may send to (asked once per notebook and host, the answer "Allow" kept in the workspace
// state under the notebook's URI), and the values of `{{$secret name}}` (asked once with a password
// box, kept in SecretStorage). In an untrusted workspace nothing is asked and nothing is sent.
import vscode from 'vscode';
import { validate } from '../core/validate';
import * as z from 'zod/mini';
import { APPROVED_HOSTS_STATE_KEY } from '../features/ids';
import type { HostApprovalRequest } from '../notebook/api';
import type { SecretStore } from './secrets';

const RESTRICTED = 'Restricted mode: this workspace is not trusted, so http cells send nothing. Trust the workspace to continue.';

/** Outside data (a Memento another version may have written): checked before use. */
const approvedSchema = z.record(z.string(), z.array(z.string()));

export class HttpCellAccess {
  /** Asked and refused during the current run of each notebook: a Run All asks once per host. */
  private readonly refused = new Map<string, Set<string>>();
  private readonly pendingHosts = new Map<string, Promise<boolean>>();
  private readonly pendingSecrets = new Map<string, Promise<string>>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: SecretStore,
    private readonly isTrusted: () => boolean = () => vscode.workspace.isTrusted,
  ) {}

  /** The hosts the user allowed for a notebook (its URI string). */
  approvedHosts(notebook: string): string[] {
    return this.approved()[notebook] ?? [];
  }

  /** A new run of the notebook: hosts refused in an earlier run are asked about again. */
  forgetRefusals(notebook: string): void {
    this.refused.delete(notebook);
  }

  async approveHost(notebook: string, req: HostApprovalRequest): Promise<true | string> {
    if (!this.isTrusted()) return RESTRICTED;
    if (this.approvedHosts(notebook).includes(req.host)) return true;
    const notAllowed = `not sent: you did not allow requests from this notebook to ${req.host}; run the cell again to be asked again`;
    if (this.refused.get(notebook)?.has(req.host)) return notAllowed;
    const id = `${notebook}\n${req.host}`;
    let asking = this.pendingHosts.get(id);
    if (!asking) {
      asking = this.ask(notebook, req);
      this.pendingHosts.set(id, asking);
      void asking.finally(() => this.pendingHosts.delete(id));
    }
    if (await asking) return true;
    let refused = this.refused.get(notebook);
    if (!refused) this.refused.set(notebook, (refused = new Set()));
    refused.add(req.host);
    return notAllowed;
  }

  /** `{{$secret name}}`: stored, or asked for once (a password box) and stored. */
  secret(name: string): Promise<string> {
    if (!this.isTrusted()) return Promise.reject(new Error(RESTRICTED));
    let p = this.pendingSecrets.get(name);
    if (!p) {
      p = this.readOrAsk(name);
      this.pendingSecrets.set(name, p);
      void p.then(
        () => this.pendingSecrets.delete(name),
        () => this.pendingSecrets.delete(name),
      );
    }
    return p;
  }

  private async ask(notebook: string, req: HostApprovalRequest): Promise<boolean> {
    const carries = req.credentials.length ? ` The requests carry ${req.credentials.join(', ')}.` : '';
    const choice = await vscode.window.showWarningMessage(
      `Send requests from this notebook to ${req.host}?`,
      {
        modal: true,
        detail: `Its http cells send to ${req.origin}.${carries} Only allow hosts you trust: the answer is remembered for this notebook.`,
      },
      'Allow',
    );
    if (choice !== 'Allow') return false;
    const all = this.approved();
    await this.state.update(APPROVED_HOSTS_STATE_KEY, { ...all, [notebook]: [...new Set([...(all[notebook] ?? []), req.host])] });
    return true;
  }

  private async readOrAsk(name: string): Promise<string> {
    const stored = await this.secrets.getNotebookSecret(name);
    if (stored) return stored;
    const value = await vscode.window.showInputBox({
      title: `Secret "${name}"`,
      prompt: `The value of {{$secret ${name}}}: kept in VS Code's secret storage, asked once, never written to the notebook`,
      password: true,
      ignoreFocusOut: true,
    });
    if (!value) throw new Error(`no value was given for the secret "${name}": run the cell again to enter it`);
    await this.secrets.setNotebookSecret(name, value);
    return value;
  }

  private approved(): Record<string, string[]> {
    const v = validate(approvedSchema, this.state.get(APPROVED_HOSTS_STATE_KEY, {}));
    return v.ok ? v.value : {};
  }
}
