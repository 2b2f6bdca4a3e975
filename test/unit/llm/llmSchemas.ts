// JSON Schemas shared by the LLM tests.

/** A strict structured-output schema: nested objects, arrays, enums, nullable and numbers. */
export const TRIP_SCHEMA = {
  type: 'object',
  properties: {
    destination: { type: 'string' },
    nights: { type: 'integer', minimum: 1, maximum: 30 },
    budget: { type: ['number', 'null'] },
    season: { type: 'string', enum: ['spring', 'summer', 'autumn', 'winter'] },
    stops: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, hours: { type: 'number' }, booked: { type: 'boolean' } },
        required: ['name', 'hours', 'booked'],
        additionalProperties: false,
      },
    },
    traveller: { $ref: '#/$defs/person' },
  },
  required: ['destination', 'nights', 'budget', 'season', 'stops', 'traveller'],
  additionalProperties: false,
  $defs: {
    person: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name', 'age'],
      additionalProperties: false,
    },
  },
};
