// New API Notebook's file name: whatever the user types, the file ends in .awb.md (the only
// extension that opens as a notebook), and a bad or taken name is caught before anything is written.
import * as assert from 'node:assert/strict';
import {
  DEFAULT_NOTEBOOK_NAME,
  importedNotebookBase,
  notebookFileName,
  notebookNameProblem,
  uniqueNotebookName,
} from '../../../src/features/notebook/notebookFileName';

describe('New API Notebook file name', () => {
  it('ends in .awb.md whether the user typed no extension, half of it or all of it', () => {
    for (const typed of ['tour', 'tour.md', 'tour.awb', 'tour.awb.md', '  tour  ', 'tour.AWB.MD']) assert.equal(notebookFileName(typed), 'tour.awb.md', typed);
    assert.equal(notebookFileName('v1.2 tour'), 'v1.2 tour.awb.md');
  });

  it('refuses an empty name, folders and characters other systems refuse, with what to do', () => {
    assert.match(notebookNameProblem('') ?? '', /Give the notebook a name/);
    assert.match(notebookNameProblem('.awb.md') ?? '', /Give the notebook a name/);
    assert.match(notebookNameProblem('notes/tour') ?? '', /without folders/);
    assert.match(notebookNameProblem('a:b') ?? '', /cannot contain/);
    assert.match(notebookNameProblem('.hidden') ?? '', /start or end with a dot/);
    assert.equal(notebookNameProblem('tour'), undefined);
    assert.equal(notebookNameProblem('my tour.md'), undefined);
  });

  it('offers the first name whose file is not there yet', async () => {
    const existing = new Set(['api-notebook.awb.md', 'api-notebook-2.awb.md']);
    assert.equal(await uniqueNotebookName(DEFAULT_NOTEBOOK_NAME, (f) => existing.has(f)), 'api-notebook-3');
    assert.equal(await uniqueNotebookName('tour', (f) => Promise.resolve(existing.has(f))), 'tour');
  });

  it('an import proposes its source file’s name as the notebook’s, so Save As offers a name that opens as a notebook', () => {
    assert.equal(notebookFileName(importedNotebookBase('requests.http')), 'requests.awb.md');
    assert.equal(notebookFileName(importedNotebookBase('/work/api/trip-planning.postman_collection.json')), 'trip-planning.awb.md');
    assert.equal(notebookFileName(importedNotebookBase('C:\\api\\calls.rest')), 'calls.awb.md');
    assert.equal(notebookFileName(importedNotebookBase('sandbox-tour.awb.md')), 'sandbox-tour.awb.md');
    assert.equal(notebookFileName(importedNotebookBase('a:b?.http')), 'a-b-.awb.md');
    assert.equal(notebookFileName(importedNotebookBase('.http')), 'api-notebook.awb.md');
  });
});
