import * as z from 'zod/mini';
import * as core from 'zod/v4/core';

/**
 * z.looseObject (unknown fields kept), checked by code compiled for its shape. zod/mini checks an
 * object field by field in a generic loop; full zod compiles a checker per shape (with new Function),
 * but its build adds 68 KB to a bundle. This is full zod's compiled object under mini's API: the same
 * output and the same issues, with validation of a page of five places going from ~12 to ~5 µs
 * (measured), which is what lets the maps client match a bare request's latency (`npm run bench`).
 * Where code generation is not allowed, zod falls back to the loop by itself.
 */
export function looseObject<Shape extends core.$ZodLooseShape>(shape: Shape): z.ZodMiniObject<Shape, core.$loose> {
  const schema = new CompiledMiniObject({ type: 'object', shape, catchall: z.unknown() });
  return schema as unknown as z.ZodMiniObject<Shape, core.$loose>;
}

// The two traits zod/mini's own object combines, with the compiled object in place of the plain one.
type Trait = (inst: unknown, def: unknown) => void;
const CompiledMiniObject = core.$constructor('ZodMiniObject', (inst: core.$ZodObject, def: core.$ZodObjectDef) => {
  (core.$ZodObjectJIT.init as Trait)(inst, def);
  (z.ZodMiniType.init as Trait)(inst, def);
  Object.defineProperty(inst, 'shape', { get: () => def.shape });
});
