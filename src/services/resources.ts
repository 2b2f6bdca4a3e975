// The uniform listing every sandbox service answers (and a provider may offer):
// `GET {origin}/v1/resources` with `Authorization: Bearer <key>` ->
// `{"resources": [{"id", "kind", "name", "detail"}]}`. The key is the LLM key, the maps key, or
// the realtime app secret; an error body carries `error.message` (OpenAI, Google and the realtime
// sandbox all do).
import * as z from 'zod/mini';
import type { Cancel } from '../core/cancellation';
import type { Headers, HttpClient, HttpClientOptions, ServiceErrorInfo } from '../core/http';
import { validate } from '../core/validate';

export const RESOURCES_PATH = '/v1/resources';

export const resourceSchema = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string(),
  detail: z.optional(z.string()),
});
export type Resource = z.infer<typeof resourceSchema>;

export const resourceListSchema = z.object({ resources: z.array(resourceSchema) });

const errorBodySchema = z.object({
  error: z.object({ message: z.optional(z.string()), code: z.optional(z.union([z.string(), z.number(), z.null()])), status: z.optional(z.string()) }),
});

/** Reads `{error: {message, code | status}}`, whichever service wrote it. */
export function resourcesErrorParser(_status: number, body: unknown, _headers: Headers): ServiceErrorInfo {
  const v = validate(errorBodySchema, body);
  if (!v.ok) return {};
  const { message, code, status } = v.value.error;
  const named = status ?? (code === null || code === undefined ? undefined : String(code));
  return { code: named, message };
}

/** HttpClient options for the listing of a service whose base URL is `baseUrl`: its origin, a bearer key. */
export function resourcesHttpOptions(baseUrl: string): Pick<HttpClientOptions, 'baseUrl' | 'auth' | 'parseError'> {
  return { baseUrl: new URL(baseUrl).origin, auth: { placement: 'bearer' }, parseError: resourcesErrorParser };
}

/** Lists a provider's resources; `http` must be built with resourcesHttpOptions (origin, bearer key). */
export class ResourcesClient {
  constructor(private readonly http: HttpClient) {}

  async list(cancel?: Cancel): Promise<Resource[]> {
    const res = await this.http.json({ path: RESOURCES_PATH, schema: resourceListSchema, cancel });
    return res.data.resources;
  }
}
