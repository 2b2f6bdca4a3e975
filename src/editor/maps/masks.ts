import vscode from 'vscode';
import * as z from 'zod/mini';
import { fieldMaskFor, MASK_PRESETS, placeTierMasks, type MapsOperation } from '../../services/maps/fieldMasks';
import { compareSku, skuOf, type SkuOperation } from '../../services/maps/sku';
import { validate } from '../../core/validate';
import { CONFIG_SECTION } from '../../features/ids';
import type { Services } from '../services';
import { priceTable, priceText, skuLabel } from '../../features/maps/costs';

const OPERATIONS: ReadonlyArray<{ op: SkuOperation; label: string }> = [
  { op: 'searchText', label: 'Search Places (Text Search)' },
  { op: 'searchNearby', label: 'Search Nearby (Nearby Search)' },
  { op: 'getPlace', label: 'Place Details' },
  { op: 'computeRoutes', label: 'Compute Route' },
  { op: 'computeRouteMatrix', label: 'Route Matrix' },
];

const argsSchema = z.object({
  operation: z.optional(z.enum(['searchText', 'searchNearby', 'getPlace', 'computeRoutes', 'computeRouteMatrix'])),
  mask: z.optional(z.string()),
});

/** What the command did: for scripts and the in-editor tests. */
export interface MaskOutcome {
  operation: SkuOperation;
  mask: string;
  sku: string;
  /** The SKU before, when the change made the request dearer (and the user went on). */
  dearerThan?: string;
}

/** The mask each command sends now: the user's own for the operation, else the preset setting. */
export function currentMask(s: Services, op: MapsOperation): string {
  const masks = s.config.get('maps.fieldMasks');
  const preset = s.config.get('maps.fieldMaskPreset');
  return fieldMaskFor(op, { fieldMask: masks[op] || undefined, preset });
}

export function prices(s: Services): Record<string, number> {
  return priceTable(s.config.get('maps.skuPrices'));
}

/**
 * Choose Field Mask…: per operation, the presets (and a mask of your own) each with the billing
 * SKU and list price it falls under; a change to a dearer SKU asks first and says why.
 */
export async function chooseFieldMask(s: Services, arg: unknown): Promise<MaskOutcome | undefined> {
  const given = arg && typeof arg === 'object' ? validate(argsSchema, arg) : undefined;
  const a = given?.ok ? given.value : {};
  const table = prices(s);
  const op =
    a.operation ??
    (
      await vscode.window.showQuickPick(
        OPERATIONS.map((o) => ({
          label: o.label,
          description: skuLabel(skuOf(o.op, currentMask(s, o.op), { prices: table })),
          detail: `Now: ${currentMask(s, o.op)}`,
          op: o.op,
        })),
        {
          title: 'Field mask: which request?',
          placeHolder: 'The SKU a request is billed under depends on its fields (Places) or options (Routes)',
          matchOnDetail: true,
        },
      )
    )?.op;
  if (!op) return undefined;
  const current = currentMask(s, op);
  const mask = a.mask ?? (await pickMask(op, current, table));
  if (!mask) return undefined;
  const change = compareSku(current, mask, { operation: op, prices: table });
  if (change.dearer) {
    const why = change.raisedBy.length ? ` because of ${change.raisedBy.slice(0, 6).join(', ')}${change.raisedBy.length > 6 ? '…' : ''}` : '';
    const go = await vscode.window.showWarningMessage(
      `This mask moves the request from ${change.from.sku} (${priceText(change.from)}) to ${change.to.sku} (${priceText(change.to)})${why}.`,
      'Use It',
      'Keep Current',
    );
    if (go !== 'Use It') return undefined;
  }
  const all = { ...s.config.get('maps.fieldMasks'), [op]: mask };
  await vscode.workspace.getConfiguration(CONFIG_SECTION).update('maps.fieldMasks', all, vscode.ConfigurationTarget.Global);
  if (!change.dearer) void vscode.window.showInformationMessage(`${OPERATIONS.find((o) => o.op === op)?.label ?? op}: ${skuLabel(change.to)}.`);
  return { operation: op, mask, sku: change.to.sku, ...(change.dearer ? { dearerThan: change.from.sku } : {}) };
}

async function pickMask(op: SkuOperation, current: string, table: Record<string, number>): Promise<string | undefined> {
  const routes = op === 'computeRoutes' || op === 'computeRouteMatrix';
  // Each preset is named by the SKU it bills (the one table in services/maps/sku.ts), the same
  // name the hover and the dearer-SKU diagnostic use; a preset that bills like the next one
  // up is dropped for the larger mask at the same price.
  const item = (mask: string) => {
    const sku = skuOf(op, mask, { prices: table });
    const fields = mask === '*' ? 'every field (*)' : `${mask.split(',').length} field${mask.includes(',') ? 's' : ''}`;
    return { label: mask === current ? `${skuLabel(sku)} $(check)` : skuLabel(sku), description: fields, detail: mask, mask, sku: sku.sku };
  };
  const candidates = routes ? [...new Set(MASK_PRESETS.map((p) => fieldMaskFor(op, { preset: p })))] : placeTierMasks(op);
  const items = candidates.map(item);
  const presets = routes ? items : items.filter((it, i) => items[i + 1]?.sku !== it.sku);
  const own = {
    label: '$(edit) Your own mask…',
    description: routes ? 'Routes bill by options (traffic, two-wheeler, tolls), not by fields' : 'Billed at the SKU of its dearest field',
    detail: current,
    mask: '',
  };
  const pick = await vscode.window.showQuickPick([...presets, own], {
    title: `Field mask: ${OPERATIONS.find((o) => o.op === op)?.label ?? op}`,
    placeHolder: 'Each mask with the SKU it is billed under (list price per 1,000)',
    matchOnDetail: true,
  });
  if (!pick) return undefined;
  if (pick !== own) return pick.mask;
  const typed = await vscode.window.showInputBox({
    title: 'Your field mask',
    prompt: 'Comma-separated field paths (X-Goog-FieldMask)',
    value: current,
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (!v.trim()) return 'A mask is required (e.g. places.id,places.displayName)';
      const sku = skuOf(op, v, { prices: table });
      return {
        message: `${skuLabel(sku)}${sku.unknownFields.length ? ` · not in Google's SKU lists: ${sku.unknownFields.join(', ')}` : ''}`,
        severity: vscode.InputBoxValidationSeverity.Info,
      };
    },
  });
  return typed?.trim() || undefined;
}
