// esbuild's text loader (esbuild.mjs) imports a stylesheet as its text.
declare module '*.css' {
  const text: string;
  export default text;
}
