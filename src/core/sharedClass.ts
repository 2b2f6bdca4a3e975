// The editor's code is built into several bundles (dist/extension.js, dist/foundation.js, dist/llm.js,
// …: esbuild.mjs), each with its own copy of the core modules it uses, and a class in two bundles is two
// classes. An ApiError made by the credential guard in dist/extension.js was not `instanceof` the
// ApiError of the HTTP client in dist/foundation.js, which then took an origin refusal for a network
// failure and retried it: the user was asked three times whether the key may go there (issue 39).
//
// A class whose objects may cross from one bundle to another is marked with `sharedAcrossBundles`:
// its instances carry a brand registered under a fixed name (Symbol.for, one symbol per process), the
// same in every copy, and `instanceof` the class checks the brand. Subclasses keep the ordinary check.
// test/unit/core/sharedClass.test.ts finds, from esbuild's metafile, every class that is in two
// bundles and tested with `instanceof`, and fails until it is marked.

type AnyClass = abstract new (...args: never[]) => object;

/**
 * Makes `x instanceof cls` true for an object made by any bundle's copy of `cls`. `name` is fixed
 * (not `cls.name`, which a minifier renames) and unique: `api-workbench.ApiError`, say. Call it in
 * the class's static block: `static { sharedAcrossBundles(this, 'api-workbench.ApiError'); }`.
 */
export function sharedAcrossBundles(cls: AnyClass, name: string): void {
  const brand = Symbol.for(name);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      // A subclass inherits this method; for it, the ordinary prototype-chain check.
      if (this !== cls) return Function.prototype[Symbol.hasInstance].call(this, value);
      return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
    },
  });
}
