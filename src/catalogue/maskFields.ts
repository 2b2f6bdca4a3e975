// X-Goog-FieldMask: the fields an operation's answer has, each with the SKU it bills the request
// under (the SKU table of src/services/maps/sku.ts), and whether a JSON path of the answer is in
// the answer at all, or in the mask the request asks for.
import { maskPaths, type FieldTree } from '../sandbox/maps/fieldMask';
import { skuOf, type SkuResult } from '../services/maps/sku';
import type { Operation } from './operations';

export interface MaskField {
  /** As written in the mask: `places.displayName`. */
  path: string;
  /** The SKU a mask of this field alone bills under (Places; Routes bill by features). */
  sku?: Pick<SkuResult, 'sku' | 'tier' | 'pricePer1000' | 'per'>;
}

/** How deep mask paths are offered: `routes.legs.duration` yes, deeper ones are written by hand. */
const MAX_DEPTH = 3;
const cache = new Map<string, MaskField[]>();

function flatten(tree: FieldTree, prefix: string, depth: number, out: string[]): void {
  if (typeof tree !== 'object') return;
  for (const [name, child] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.push(path);
    if (depth + 1 < MAX_DEPTH) flatten(child, path, depth + 1, out);
  }
}

/** Every field the operation's mask can name, with its SKU where the table knows it. */
export function maskFieldsOf(op: Operation): readonly MaskField[] {
  if (!op.response) return [];
  const hit = cache.get(op.id);
  if (hit) return hit;
  const paths: string[] = [];
  flatten(op.response, '', 0, paths);
  const sku = op.sku;
  const out = paths.map((path): MaskField => {
    if (!sku || sku === 'autocomplete' || sku === 'computeRoutes' || sku === 'computeRouteMatrix') return { path };
    const r = skuOf(sku, [path]);
    return r.unknownFields.length ? { path } : { path, sku: { sku: r.sku, tier: r.tier, pricePer1000: r.pricePer1000, per: r.per } };
  });
  cache.set(op.id, out);
  return out;
}

/** Whether the answer of `op` can have `path` (keys; indexes skipped): undefined when the tree does not say. */
export function responseHas(op: Operation, path: ReadonlyArray<string | number>): boolean | undefined {
  if (!op.response) return undefined;
  let tree: FieldTree = op.response;
  let keys = path;
  if (op.responseIsArray) {
    if (typeof keys[0] !== 'number') return keys.length === 0 || keys[0] === 'length';
    keys = keys.slice(1);
  }
  for (const key of keys) {
    if (tree === 'opaque') return true;
    if (typeof key === 'number') continue;
    if (tree === 'leaf') return key === 'length';
    const child: FieldTree | undefined = Object.hasOwn(tree, key) ? tree[key] : undefined;
    if (child === undefined) return false;
    tree = child;
  }
  return true;
}

/** Whether a mask asks for the answer's `path` (or part of it); '*' asks for everything. */
export function maskSelects(mask: string, op: Operation, path: ReadonlyArray<string | number>): boolean {
  let keys = path.filter((k): k is string => typeof k === 'string');
  if (op.responseIsArray && keys.length === 0) return true;
  if (keys.length === 0) return true;
  let paths: string[];
  try {
    paths = maskPaths(mask);
  } catch {
    // A mask the sandbox cannot read: nothing to say about what it selects.
    return true;
  }
  keys = keys.filter((k) => k !== 'length');
  return paths.some((p) => {
    if (p === '*') return true;
    const segs = p.split('.');
    const n = Math.min(segs.length, keys.length);
    for (let i = 0; i < n; i++) if (segs[i] !== keys[i] && segs[i] !== '*') return false;
    return true;
  });
}
