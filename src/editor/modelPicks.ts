// Quick-pick items for a model list: one separator per kind, in the catalogue's one order
// (catalogue/modelKinds.ts); kinds that cannot serve the command are left out by the caller.
import vscode from 'vscode';
import { modelsByKind, type ModelKind } from '../catalogue/modelKinds';

export interface ModelPickItem extends vscode.QuickPickItem {
  model?: string;
}

/**
 * `recent` (last asked) and `fallback` (the connection's default) come first among their kind and
 * say so; the first item is the one VS Code pre-selects.
 */
export function modelPickItems(
  models: ReadonlyArray<{ id: string; owned_by?: string | null }>,
  kinds: readonly ModelKind[],
  marks: { recent?: string; fallback?: string; picked?: readonly string[] } = {},
): ModelPickItem[] {
  return modelsByKind(models, kinds, [marks.recent, marks.fallback]).flatMap((group) => [
    { label: group.label, kind: vscode.QuickPickItemKind.Separator },
    ...group.models.map((m) => ({
      label: m.id,
      description: [m.id === marks.recent ? 'last used' : undefined, m.id === marks.fallback ? '★ default' : undefined, m.owned_by ?? undefined]
        .filter(Boolean)
        .join(' · '),
      model: m.id,
      ...(marks.picked ? { picked: marks.picked.includes(m.id) } : {}),
    })),
  ]);
}
