// A jest reporter for CI (.ci/run, docs/testing.md): the run fails when any test was skipped or left
// as a todo, so a suite can never pass in CI by not running. Engine-specific tests are files of their
// own (jest.config.js), never skipped at run time. Not for local runs, where `-t` skips on purpose.
class NoSkippedTestsReporter {
  onRunComplete(_contexts, results) {
    const skipped = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
          skipped.push(`${file.testFilePath}: ${test.fullName}`);
        }
      }
    }
    const skippedFiles = results.numPendingTestSuites;
    if (skipped.length > 0 || skippedFiles > 0) {
      this.error = new Error(
        `${skipped.length} test(s) skipped, ${skippedFiles} file(s) skipped; CI runs every test:\n  ${skipped.join('\n  ')}`,
      );
      process.stderr.write(`\n${this.error.message}\n`);
    }
  }

  getLastError() {
    return this.error;
  }
}

module.exports = NoSkippedTestsReporter;
