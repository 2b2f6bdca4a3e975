// The environment a script written for OpenAI runs in: OPENAI_BASE_URL and OPENAI_API_KEY, nothing else.

/** Sets OPENAI_BASE_URL / OPENAI_API_KEY for the suite, as a user's shell would, and puts back what was there. */
export function useOpenAiEnv(baseUrl: () => string, key: string): void {
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) saved[name] = process.env[name];
    process.env.OPENAI_BASE_URL = baseUrl();
    process.env.OPENAI_API_KEY = key;
    delete process.env.OPENAI_ORG_ID;
    delete process.env.OPENAI_PROJECT_ID;
  });
  after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}
