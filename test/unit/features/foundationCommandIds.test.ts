// features/foundationCommandIds: activation registers the connection and key commands by these ids
// and loads their code (dist/foundation.js) only when one runs, so the list must name real commands,
// and a table that drifted from it must be reported rather than leave a command unregistered.
import * as assert from 'node:assert/strict';
import { COMMAND_IDS } from '../../../src/features/commandIds';
import { FOUNDATION_COMMAND_IDS, foundationIdsMismatch } from '../../../src/features/foundationCommandIds';

describe('foundation command ids', () => {
  it('are contributed commands, each once, with every service’s connection commands and Diagnose', () => {
    for (const id of FOUNDATION_COMMAND_IDS) assert.ok((COMMAND_IDS as readonly string[]).includes(id), `${id} is not in package.json`);
    assert.equal(new Set(FOUNDATION_COMMAND_IDS).size, FOUNDATION_COMMAND_IDS.length);
    for (const id of ['apiWorkbench.llm.addConnection', 'apiWorkbench.realtime.setKey', 'apiWorkbench.diagnoseConnection', 'apiWorkbench.sandbox.start']) {
      assert.ok(FOUNDATION_COMMAND_IDS.includes(id as never), id);
    }
  });

  it('a table with exactly these ids passes; one with an extra or a missing id is named', () => {
    const table = Object.fromEntries(FOUNDATION_COMMAND_IDS.map((id) => [id, () => undefined]));
    assert.equal(foundationIdsMismatch(table), undefined);
    const message = foundationIdsMismatch({ ...table, 'apiWorkbench.extra': () => undefined, 'apiWorkbench.showLog': undefined });
    assert.match(message ?? '', /not listed apiWorkbench\.extra/);
    const { ['apiWorkbench.showLog']: _dropped, ...missing } = table;
    assert.match(foundationIdsMismatch(missing) ?? '', /listed but missing apiWorkbench\.showLog/);
  });
});
