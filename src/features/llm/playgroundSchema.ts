// The playground's structured outputs use the JSON Schema checks the notebooks share (services/llm/jsonSchema.ts).
export { checkSchema, validateJsonText, type SchemaCheck } from '../../services/llm/jsonSchema';
