// OpenAI model ids that no longer answer, with the day each was shut down and the model OpenAI
// named to replace it, compiled from its deprecations page
// (https://developers.openai.com/api/docs/deprecations, formerly platform.openai.com/docs/deprecations;
// rows checked 2026-11-28 against OpenAI's own copy of that page in openai/openai-cookbook,
// examples/data/oai_docs/deprecations.txt: Codex and edit models name gpt-4o, gpt-4-0314 is
// "at earliest 2024-06-13"; gpt-4.5-preview's row is from the page's 2025-04-14 notice).
// The one table: the sandbox answers these ids as OpenAI does (404 "has been deprecated"), the
// importer's report, `api-workbench check`, the editor's diagnostics, hover and quick fix name the
// replacement from here. It lives in services (not the catalogue) because the sandbox and the
// importer sit below the catalogue; src/catalogue re-exports it.

export interface RetiredModel {
  id: string;
  /** The day OpenAI stopped serving it (YYYY-MM-DD). */
  shutDown: string;
  /** The model OpenAI recommends instead. */
  replacement: string;
}

/** Where OpenAI lists them; its 404 names this page. */
export const DEPRECATIONS_URL = 'https://platform.openai.com/docs/deprecations';

const group = (shutDown: string, replacement: string, ids: readonly string[]): RetiredModel[] => ids.map((id) => ({ id, shutDown, replacement }));

export const RETIRED_MODELS: readonly RetiredModel[] = [
  ...group('2023-03-23', 'gpt-4o', ['code-davinci-002', 'code-davinci-001', 'code-cushman-002', 'code-cushman-001']),
  ...group('2024-01-04', 'gpt-3.5-turbo-instruct', [
    'text-davinci-003',
    'text-davinci-002',
    'text-davinci-001',
    'text-curie-001',
    'text-babbage-001',
    'text-ada-001',
  ]),
  ...group('2024-01-04', 'davinci-002', ['davinci', 'curie']),
  ...group('2024-01-04', 'babbage-002', ['babbage', 'ada']),
  ...group('2024-01-04', 'gpt-4o', ['text-davinci-edit-001', 'code-davinci-edit-001']),
  ...group('2024-01-04', 'text-embedding-3-small', [
    'text-similarity-ada-001',
    'text-similarity-babbage-001',
    'text-similarity-curie-001',
    'text-similarity-davinci-001',
    'text-search-ada-doc-001',
    'text-search-ada-query-001',
    'text-search-babbage-doc-001',
    'text-search-babbage-query-001',
    'text-search-curie-doc-001',
    'text-search-curie-query-001',
    'text-search-davinci-doc-001',
    'text-search-davinci-query-001',
    'code-search-ada-code-001',
    'code-search-ada-text-001',
    'code-search-babbage-code-001',
    'code-search-babbage-text-001',
  ]),
  ...group('2024-09-13', 'gpt-3.5-turbo', ['gpt-3.5-turbo-0301', 'gpt-3.5-turbo-0613', 'gpt-3.5-turbo-16k-0613']),
  ...group('2024-12-06', 'gpt-4o', ['gpt-4-vision-preview', 'gpt-4-1106-vision-preview']),
  ...group('2024-06-13', 'gpt-4o', ['gpt-4-0314']),
  ...group('2025-06-06', 'gpt-4o', ['gpt-4-32k', 'gpt-4-32k-0314', 'gpt-4-32k-0613']),
  ...group('2025-07-14', 'gpt-4.1', ['gpt-4.5-preview', 'gpt-4.5-preview-2025-02-27']),
];

const byId = new Map(RETIRED_MODELS.map((m) => [m.id, m]));

export function retiredModel(id: string): RetiredModel | undefined {
  return byId.get(id);
}

/** The sentence every front end shows: when it stopped and what replaced it. */
export function retiredModelAdvice(m: RetiredModel): string {
  return `OpenAI shut down "${m.id}" on ${m.shutDown}; "${m.replacement}" replaced it`;
}
