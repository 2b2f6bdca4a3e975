// The languages Copy as Code and `api-workbench export --format` write, in one list: the editor's
// quick pick, the CLI's formats and the tests that run each one read it.

/** A language of Copy as Code: plain HTTP (httpsnippet's targets, cURL) or a service's official SDK. */
export type CodeLanguage = 'curl' | 'python' | 'javascript' | 'go' | 'java' | 'csharp' | 'php' | 'python-sdk' | 'javascript-sdk';

export interface CodeLanguageInfo {
  id: CodeLanguage;
  label: string;
  /** What the code needs, shown beside the label and in the code's first line. */
  needs: string;
  /** httpsnippet's target and client; absent for cURL (core/curl.ts) and the SDKs (hand-written). */
  snippet?: { target: string; client: string };
  /** The editor language the code opens in. */
  editorLanguage: string;
  /** The comment marker of the language. */
  comment: '#' | '//';
}

export const CODE_LANGUAGES: readonly CodeLanguageInfo[] = [
  { id: 'curl', label: 'cURL', needs: 'curl and a POSIX shell', editorLanguage: 'shellscript', comment: '#' },
  {
    id: 'python',
    label: 'Python (requests)',
    needs: 'Python 3 and requests (pip install requests)',
    snippet: { target: 'python', client: 'requests' },
    editorLanguage: 'python',
    comment: '#',
  },
  {
    id: 'javascript',
    label: 'JavaScript (fetch)',
    needs: 'Node 20+ (or a browser) and fetch',
    snippet: { target: 'javascript', client: 'fetch' },
    editorLanguage: 'javascript',
    comment: '//',
  },
  { id: 'go', label: 'Go (net/http)', needs: 'Go and its standard library', snippet: { target: 'go', client: 'native' }, editorLanguage: 'go', comment: '//' },
  {
    id: 'java',
    label: 'Java (java.net.http)',
    needs: 'Java 11+ (java.net.http)',
    snippet: { target: 'java', client: 'nethttp' },
    editorLanguage: 'java',
    comment: '//',
  },
  {
    id: 'csharp',
    label: 'C# (HttpClient)',
    needs: '.NET 6+ (System.Net.Http)',
    snippet: { target: 'csharp', client: 'httpclient' },
    editorLanguage: 'csharp',
    comment: '//',
  },
  { id: 'php', label: 'PHP (cURL)', needs: 'PHP with the curl extension', snippet: { target: 'php', client: 'curl' }, editorLanguage: 'php', comment: '//' },
  {
    id: 'python-sdk',
    label: 'Python SDK (openai, pusher)',
    needs: 'Python 3 and the official SDK (pip install openai / pusher)',
    editorLanguage: 'python',
    comment: '#',
  },
  {
    id: 'javascript-sdk',
    label: 'JavaScript SDK (openai, pusher, pusher-js)',
    needs: 'Node 20+ and the official SDK (npm install openai / pusher / pusher-js)',
    editorLanguage: 'javascript',
    comment: '//',
  },
];

export function codeLanguage(id: CodeLanguage): CodeLanguageInfo {
  const found = CODE_LANGUAGES.find((l) => l.id === id);
  if (!found) throw new Error(`"${id}" is not a language Copy as Code writes.`);
  return found;
}

export function isCodeLanguage(id: string): id is CodeLanguage {
  return CODE_LANGUAGES.some((l) => l.id === id);
}
