// Apart from specFile.ts so that the engine can name the variable without loading the OpenAPI
// parser (swagger-parser, ajv) that specFile.ts imports: a run loads it only for `matches spec`.
/** The vars key a notebook names its OpenAPI document by (the importer writes it). */
export const SPEC_VARIABLE = 'spec';
