// What this session's maps requests would cost on Google Maps Platform: each request's SKU (from
// its field mask and options, src/services/maps/sku.ts) at the list price per 1,000 from the
// user's price table. vscode-free: unit-tested.
//
// List prices: https://developers.google.com/maps/billing-and-pricing/pricing (first volume tier,
// before the monthly free usage); the defaults are DEFAULT_SKU_PRICES, editable in the
// `apiWorkbench.maps.skuPrices` setting because Google changes them.
import { DEFAULT_SKU_PRICES, skuOf, type SkuOperation, type SkuOptions, type SkuResult } from '../../services/maps/sku';
import type { MapsOperation } from '../../services/maps/fieldMasks';
import { formatUsd } from '../../core/numbers';
import type { AnsweredCall } from '../../services/maps/client';
import { billedCall, billedRequest, type BilledCall, type SentMapsRequest } from './billing';

/** The operations Google bills by SKU (Address Validation and Geocoding have one price each: not tracked). */
export const SKU_OPERATIONS: readonly SkuOperation[] = ['autocomplete', 'getPlace', 'searchText', 'searchNearby', 'computeRoutes', 'computeRouteMatrix'];

export function isSkuOperation(op: MapsOperation): op is SkuOperation {
  return (SKU_OPERATIONS as readonly string[]).includes(op);
}

/** The user's prices over the defaults; non-numbers and negatives are ignored. */
export function priceTable(user: Readonly<Record<string, unknown>>): Record<string, number> {
  const out: Record<string, number> = { ...DEFAULT_SKU_PRICES };
  for (const [sku, v] of Object.entries(user)) if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[sku] = v;
  return out;
}

/** "$17.00 / 1,000" (or "/ 1,000 elements" for the matrix). */
export function priceText(sku: SkuResult): string {
  return `$${sku.pricePer1000.toFixed(2)} / 1,000${sku.per === 'element' ? ' elements' : ''}`;
}

/** "Place Details Pro · $17.00 / 1,000": what a field-mask item shows. */
export function skuLabel(sku: SkuResult): string {
  return `${sku.sku} · ${priceText(sku)}`;
}

/** The maps tally's dollars: the one formatter everything people read uses. */
export const dollars = formatUsd;

export interface CostLine {
  sku: string;
  count: number;
  /** Billable events: requests, or elements for the matrix. */
  units: number;
  pricePer1000: number;
  cost: number;
}

/**
 * This session's requests per SKU and their estimated cost; forgotten when the window closes. One
 * per window (Services.mapsCosts): the palette commands, notebook `maps` cells and the playground's
 * maps tools all spend from the same account, so they add to the same tally.
 */
export class SessionCosts {
  private readonly lines = new Map<string, CostLine>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly prices: () => Readonly<Record<string, number>>) {}

  /** Called after every change; returns what stops it (the maps view goes away with its bundle's subscriptions). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Records a call whose operation and billing inputs are known (billing.ts). */
  recordCall(call: BilledCall): SkuResult {
    return this.record(call.operation, call.fieldMask, call.options, call.units);
  }

  /** Records a MapsClient call that was answered, if its operation is billed by SKU (the playground's maps tools). */
  recordAnswered(call: AnsweredCall): SkuResult | undefined {
    return isSkuOperation(call.operation) ? this.recordCall(billedCall(call.operation, call.fieldMask, call.body)) : undefined;
  }

  /** Records a request as sent, if it is one billed by SKU (a notebook cell's); undefined otherwise. */
  recordRequest(req: SentMapsRequest): SkuResult | undefined {
    const call = billedRequest(req);
    return call && this.recordCall(call);
  }

  /** Records one request; `units` is the matrix's element count (1 otherwise). Returns its SKU. */
  record(operation: SkuOperation, fieldMask: string, options: SkuOptions = {}, units = 1): SkuResult {
    const sku = skuOf(operation, fieldMask, { ...options, prices: this.prices() });
    const line = this.lines.get(sku.sku) ?? { sku: sku.sku, count: 0, units: 0, pricePer1000: sku.pricePer1000, cost: 0 };
    line.count += 1;
    line.units += units;
    line.pricePer1000 = sku.pricePer1000;
    line.cost = (line.units * line.pricePer1000) / 1000;
    this.lines.set(sku.sku, line);
    this.changed();
    return sku;
  }

  list(): CostLine[] {
    return [...this.lines.values()].sort((a, b) => b.cost - a.cost || a.sku.localeCompare(b.sku));
  }

  get requests(): number {
    return this.list().reduce((n, l) => n + l.count, 0);
  }

  get total(): number {
    return this.list().reduce((n, l) => n + l.cost, 0);
  }

  /** "12 requests · ≈ $0.17": the tree node's text. */
  summary(): string {
    const n = this.requests;
    return `${n} request${n === 1 ? '' : 's'} · ≈ ${dollars(this.total)}`;
  }

  clear(): void {
    this.lines.clear();
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
