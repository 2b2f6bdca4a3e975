// Mocha reporter for scripts/test.mjs: the usual spec output for people, plus the totals written
// as JSON to the file given by --reporter-option totals=<file>, so the script can add them up.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options && options.reporterOption && options.reporterOption.totals;
    if (!file) throw new Error('mocha-totals-reporter needs --reporter-option totals=<file>');
    // Registered after Spec's own 'end' handler, so the summary prints first; .mocharc's exit:true
    // calls process.exit only after 'end' handlers ran.
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending }));
    });
  }
}

module.exports = SpecWithTotals;
