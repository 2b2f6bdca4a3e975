import * as assert from 'node:assert/strict';
import { SETTINGS, scriptLimits, type SettingName, type SettingValue, type SettingsReader } from '../../../../src/features/settings';
import { DEFAULT_SCRIPT_LIMITS, limitSentence } from '../../../../src/core/scriptLimits';
import type { ScriptInput } from '../../../../src/notebook/scripts/model';
import { ScriptWorkerEngine } from '../../../../src/notebook/scripts/workerHost';

const input: ScriptInput = { phase: 'pre', requestName: 'loop', variables: {}, request: { method: 'GET', url: 'https://api.example.com/', headers: [] } };

function reader(over: Partial<Record<SettingName, unknown>>): SettingsReader {
  return { get: <K extends SettingName>(key: K) => (key in over ? over[key] : SETTINGS[key].default) as SettingValue<K> };
}

describe('script limits from the settings', function () {
  this.timeout(60_000);

  it('the settings default to the issue limits: 1 s, 32 MB, 1 MB of logs', () => {
    assert.deepEqual(scriptLimits(reader({})), { timeMs: DEFAULT_SCRIPT_LIMITS.timeMs, memoryBytes: 32 * 1024 * 1024, logBytes: 1024 * 1024 });
  });

  it('a lower time limit stops an endless loop sooner and the sentence names it', async () => {
    const engine = new ScriptWorkerEngine(scriptLimits(reader({ 'scripts.timeLimitMs': 200, 'scripts.outputLimitKb': 1 })));
    try {
      // The thread's start is not the script's time: it is measured from a loaded engine.
      await engine.run('1;', input);
      const started = performance.now();
      const run = await engine.run('while (true) {}', input);
      assert.equal(run.failure?.limit, 'time');
      assert.ok(performance.now() - started < 800, `stopped after ${Math.round(performance.now() - started)} ms`);
      assert.match(limitSentence('time', engine.limits), /longer than 200 ms/);
      const log = await engine.run('for (let i = 0; i < 100; i++) console.log("0123456789abcdef");', input);
      assert.equal(log.failure?.limit, 'log');
      assert.match(limitSentence('log', engine.limits), /more than 1 KB/);
    } finally {
      engine.dispose();
    }
  });
});
