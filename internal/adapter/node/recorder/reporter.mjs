// The node:test reporter of a recorded test run: it turns each test's end
// into a test event of the recording (recorder.js) and prints nothing.
const recorder = globalThis[Symbol.for('mcp-debugger.recorder')];

export default async function* testEvents(source) {
  const names = [];
  for await (const { type, data } of source) {
    if (type === 'test:start') names[data.nesting] = data.name;
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    const name = [...names.slice(0, data.nesting), data.name].join(' > ');
    const error = data.details?.error;
    const cause = error?.cause ?? error;
    const outcome = data.skip || data.todo ? 'skipped' : type === 'test:pass' ? 'passed' : 'failed';
    const event = { name, outcome };
    if (type === 'test:fail' && cause) event.msg = String(cause.message ?? cause).slice(0, 500);
    if (data.file) event.file = data.file;
    if (data.line) event.line = data.line;
    recorder?.test(event);
  }
}
