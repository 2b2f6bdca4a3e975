// The suite module the editor loads (extensionTestsPath): mocha over every *.test.js beside it.
// Any unhandled rejection or uncaught exception in the extension host during the run fails it.
// Same contract under code-server (runInCodeServer) and @vscode/test-electron (runInElectron).
import * as vscode from 'vscode';
import { runMochaSuite } from '../harness/mochaRunner';

export function run(): Promise<void> {
  return runMochaSuite(__dirname, { editorVersion: vscode.version, failOnHostErrors: true });
}
