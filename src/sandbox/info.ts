import * as z from 'zod/mini';
import { once } from '../core/once';
import type { SandboxInfo } from './types';

/** The ready line of `node dist/sandbox.js`, as whoever reads it (extension, scripts) validates it. */
export const sandboxInfoSchema = once((): z.ZodMiniType<SandboxInfo> =>
  z.object({
    llm: z.object({ baseUrl: z.string(), apiKey: z.string() }),
    maps: z.object({ baseUrl: z.string(), apiKey: z.string() }),
    realtime: z.object({ host: z.string(), port: z.number(), appId: z.string(), key: z.string(), secret: z.string() }),
  }),
);
