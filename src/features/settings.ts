// Every setting the extension reads (other than the connection lists, which core/connections.ts
// parses): its schema, its default and whether a workspace may set it. This is the one place a
// default lives; package.json declares the same defaults for the Settings editor, and a unit test
// keeps the two equal. `userOnly` settings are read from user settings only (scope "application"),
// so a workspace's .vscode/settings.json cannot point tiles, prices or the sandbox elsewhere.
import * as z from 'zod/mini';
import { once } from '../core/once';
import type { Schema } from '../core/validate';
import { DEFAULT_HISTORY_LIMITS, MAX_HISTORY_ENTRIES } from '../history/model';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from '../core/scriptLimits';

import { DEFAULT_TILE_ATTRIBUTION, DEFAULT_TILES } from '../services/maps/mapMessages';

interface Setting<T> {
  /** Built when the setting is first read (see core/once.ts: schemas built at load slow activation). */
  schema: () => Schema<T>;
  default: T;
  userOnly: boolean;
}

const MB = 1024 * 1024;

function setting<T>(schema: () => Schema<T>, fallback: T, opts: { userOnly?: boolean } = {}): Setting<T> {
  return { schema: once(schema), default: fallback, userOnly: opts.userOnly ?? false };
}

export const SETTINGS = {
  'sandbox.port': setting(() => z.number().check(z.int(), z.gte(0), z.lte(65533)), 0, { userOnly: true }),
  'maps.fieldMaskPreset': setting(() => z.enum(['basic', 'contact', 'everything']), 'basic'),
  'maps.fieldMasks': setting<Record<string, string>>(() => z.record(z.string(), z.string()), {}),
  'maps.tileUrl': setting(() => z.string(), DEFAULT_TILES, { userOnly: true }),
  'maps.tileAttribution': setting(() => z.string(), DEFAULT_TILE_ATTRIBUTION, { userOnly: true }),
  'maps.openResponsesIn': setting(() => z.enum(['viewer', 'document']), 'viewer'),
  'maps.skuPrices': setting<Record<string, number>>(() => z.record(z.string(), z.number()), {}),
  'history.keepResponses': setting(() => z.boolean(), DEFAULT_HISTORY_LIMITS.keepResponses),
  'history.maxEntries': setting(() => z.number().check(z.int(), z.minimum(1), z.maximum(MAX_HISTORY_ENTRIES)), DEFAULT_HISTORY_LIMITS.maxEntries),
  // Parsed by their features (llm/pricing, llm/budget), which report each bad entry and keep the rest.
  'llm.prices': setting<unknown>(() => z.unknown(), undefined, { userOnly: true }),
  'llm.dailyBudget': setting<unknown>(() => z.unknown(), undefined, { userOnly: true }),
  // The agent tools are registered once: as language-model tools where VS Code has them; as an MCP server too only when asked.
  'agents.mcpServer': setting(() => z.boolean(), false, { userOnly: true }),
  // Collection scripts' limits: a workspace may set them (an untrusted one runs no script at all).
  'scripts.timeLimitMs': setting(() => z.number().check(z.int(), z.gte(10), z.lte(60_000)), DEFAULT_SCRIPT_LIMITS.timeMs),
  'scripts.memoryLimitMb': setting(() => z.number().check(z.int(), z.gte(4), z.lte(1024)), DEFAULT_SCRIPT_LIMITS.memoryBytes / MB),
  'scripts.outputLimitKb': setting(() => z.number().check(z.int(), z.gte(1), z.lte(64 * 1024)), DEFAULT_SCRIPT_LIMITS.logBytes / 1024),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<K extends SettingName> = (typeof SETTINGS)[K] extends Setting<infer T> ? T : never;

/** What reads settings: the editor's Config, or a plain object in tests. */
export interface SettingsReader {
  get<K extends SettingName>(key: K): SettingValue<K>;
}

/** The limits of one script (time, memory, log output) from the settings. */
export function scriptLimits(settings: SettingsReader): Partial<ScriptLimits> {
  return {
    timeMs: settings.get('scripts.timeLimitMs'),
    memoryBytes: settings.get('scripts.memoryLimitMb') * MB,
    logBytes: settings.get('scripts.outputLimitKb') * 1024,
  };
}

/** The map's tile template (only an https URL is used; anything else draws the offline basemap). */
export function mapTiles(settings: SettingsReader): { url: string | null; attribution: string } {
  const url = settings.get('maps.tileUrl').trim();
  return { url: /^https:\/\/[^\s]+$/.test(url) ? url : null, attribution: settings.get('maps.tileAttribution').slice(0, 500) };
}
