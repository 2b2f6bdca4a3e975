import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Connection } from '../core/connections';
import type { Services } from './services';
import { MessageNode, type ChildSource, type TreeNode } from './tree';

const resourcesSchema = z.object({
  resources: z.optional(z.array(z.object({ id: z.string(), kind: z.string(), name: z.string(), detail: z.optional(z.string()) }))),
  data: z.optional(z.array(z.object({ id: z.string(), kind: z.string(), name: z.string(), detail: z.optional(z.string()) }))),
});

/**
 * The generic listing every sandbox service answers (`GET <base>/v1/resources`). Services show
 * their own richer children (models, capabilities, channels); this is the fallback for HTTP
 * connections that have no specific source.
 */
export class ResourcesSource implements ChildSource {
  emptyLabel = 'No resources';

  constructor(private readonly services: Services) {}

  async load(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]> {
    if (conn.service === 'realtime') return [new MessageNode(`${conn.service}:${conn.name}/none`, 'info', 'Connect to see channels')];
    const http = this.services.http.create(conn);
    const origin = new URL(conn.baseUrl).origin;
    const { data } = await http.json({ path: `${origin}/v1/resources`, schema: resourcesSchema, cancel: token });
    return (data.resources ?? data.data ?? []).map(
      (r) => new MessageNode(`${conn.service}:${conn.name}/res/${r.id}`, 'info', r.name, { description: r.detail ?? r.kind }),
    );
  }
}
