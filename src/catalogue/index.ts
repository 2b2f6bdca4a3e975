// The catalogue: what each service accepts (operations, headers, body fields, field masks with
// their SKU, check subjects and operators) and what a connection offers (models, channels), plus
// the authoring logic built on it. vscode-free: read by the editor's completions, hover and
// diagnostics, by `api-workbench check`, and by the agent tools' schemas. Plain data and small functions.
export { OPERATIONS, HTTP_METHODS, findOperation, operationsOf, type Operation, type OperationService, type HttpMethod } from './operations';
export { schemaFields, fieldAt, fieldsAt, type FieldSpec, type FieldType } from './schemaFields';
export { HEADERS, FIELD_MASK_HEADER, headersFor, findHeader, type HeaderSpec } from './headers';
export { maskFieldsOf, responseHas, maskSelects, type MaskField } from './maskFields';
export { OfferCache, offerKey, type ModelOffer, type OfferKind } from './offers';
export { modelFacts, describeModel, type ModelFacts } from './models';
export { RETIRED_MODELS, retiredModel, retiredModelAdvice, type RetiredModel } from '../services/llm/retiredModels';
export { CHECK_SUBJECTS, CHECK_OPERATORS, REALTIME_COMMANDS } from '../notebook/api';
export { TRAVEL_MODES } from '../sandbox/maps/routes';
export { notebookContext, type ContextSources } from './authoring/context';
export { cellCompletions } from './authoring/completions';
export { cellHover } from './authoring/hover';
export { cellDiagnostics, nearestOf } from './authoring/diagnostics';
export { cellDefinition } from './authoring/definition';
export { notebookDiagnostics, withNotebookSpec, type NotebookFinding } from './authoring/notebookDiagnostics';
export { SpecCatalogueCache, type SpecCatalogue, type SpecState } from './specCatalogue';
export type * from './authoring/types';
