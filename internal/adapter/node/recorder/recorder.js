'use strict';
// The JavaScript recorder: preloaded (node --require) into the program
// that the record tool runs, it rewrites each of the user's CommonJS files
// as Node compiles it (instrument.js) and writes what the rewritten
// functions report as docs/recording-format.md describes, buffered in the
// process: no event waits on anything outside it.

const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { performance } = require('node:perf_hooks');
const { types } = require('node:util');
const vm = require('node:vm');
const { instrument } = require('./instrument.js');

const cfg = JSON.parse(process.env.MCP_DEBUGGER_RECORD);
// The program's children are not recorded.
delete process.env.MCP_DEBUGGER_RECORD;

const origin = performance.now();
const now = () => Math.round((performance.now() - origin) * 1e6);

// Times and call ids are written through tables of digits rather than
// converted: V8 keeps each number it converts to text in a cache, so
// the text of thousands of recent times and ids, each written once,
// would survive every young-generation collection (and each conversion
// missing that cache is a runtime call).
const digits = Array.from({ length: 1e4 }, (_, i) => String(i));
const fourDigits = digits.map((d) => d.padStart(4, '0'));

// int is the text of n, an integer from 0.
function int(n) {
  if (n < 1e4) return digits[n];
  if (n < 1e8) {
    const high = Math.floor(n / 1e4);
    return digits[high] + fourDigits[n - high * 1e4];
  }
  if (n < 1e12) {
    const high = Math.floor(n / 1e8);
    const low = n - high * 1e8;
    const middle = Math.floor(low / 1e4);
    return digits[high] + fourDigits[middle] + fourDigits[low - middle * 1e4];
  }
  return String(n);
}

const nowText = () => int(now());

// Writing: events are kept as text lines; past the first `head` of
// maxEvents, the last `ringSize` are kept in a ring written at the end.
const fd = fs.openSync(cfg.eventsFile, 'w');
const ringSize = Math.max(1, Math.floor(cfg.maxEvents / 10));
const head = Math.max(1, cfg.maxEvents - ringSize);
// buffered is one string of the lines not yet written: appending makes
// a rope that writeSync flattens once, cheaper than keeping an array of
// lines and joining it.
let buffered = '';
let written = 0;
const ring = [];
let ringAt = 0;
const dropped = { n: 0, first: 0, last: 0, keep: [] };
let lastCall = 0;

function flush() {
  if (buffered.length) fs.writeSync(fd, buffered);
  buffered = '';
}

function append(text) {
  buffered += text;
  if (buffered.length > 1 << 16) flush();
}

// emit writes one event's line, its newline included.
function emit(text, keep) {
  if (written < head) {
    written++;
    append(text);
    return;
  }
  if (ring.length < ringSize) {
    ring.push({ text, keep });
    return;
  }
  const old = ring[ringAt];
  if (old.keep) dropped.keep.push(old.text);
  else {
    if (dropped.n === 0) dropped.first = lastCall;
    dropped.n++;
    dropped.last = lastCall;
  }
  ring[ringAt] = { text, keep };
  ringAt = (ringAt + 1) % ringSize;
}

let ended = false;
function finish(end) {
  if (ended) return;
  ended = true;
  for (const text of dropped.keep) append(text);
  if (dropped.n) append(JSON.stringify({ k: 'gap', t: now(), n: dropped.n, first: dropped.first, last: dropped.last }) + '\n');
  for (let i = 0; i < ring.length; i++) append(ring[(ringAt + i) % ring.length].text);
  append(JSON.stringify({ k: 'end', t: now(), ...end }) + '\n');
  flush();
  fs.closeSync(fd);
}

// Values: rendered without running the program's code (no toString, no
// getters, no proxy traps) unless useRepr.
const ids = new WeakMap();
let nextObject = 0;
const quote = (s) => {
  const cut = s.length > 80 ? s.slice(0, 80) + '…' : s;
  return "'" + cut.replace(/[\\'\n\r\t]/g, (c) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]) + "'";
};
const own = Object.getOwnPropertyDescriptor;
const ObjectProto = Object.prototype;
const objectToString = Object.prototype.toString;
const dateISO = Date.prototype.toISOString;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;
const mapSize = own(Map.prototype, 'size').get;
const setSize = own(Set.prototype, 'size').get;

function render(v, depth = 0) {
  switch (typeof v) {
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'string': return quote(v);
    case 'boolean': return v ? 'true' : 'false';
    case 'undefined': return 'undefined';
    case 'bigint': return String(v) + 'n';
    case 'symbol': return `Symbol(${quote(v.description ?? '').slice(1, -1)})`;
    case 'function': return `[Function ${typeof own(v, 'name')?.value === 'string' ? own(v, 'name').value || '(anonymous)' : '(anonymous)'}]`;
  }
  if (v === null) return 'null';
  if (types.isProxy(v)) return `Proxy#${identity(v)}`;
  if (cfg.useRepr && typeof v.toString === 'function' && v.toString !== objectToString) {
    try { return quote(String(v)).slice(1, -1); } catch { /* the object's own rendering failed: fall through */ }
  }
  if (Array.isArray(v)) return depth >= 2 ? `Array(${v.length})` : list('[', ']', denseItems(v), v.length, depth);
  if (types.isMap(v)) {
    const size = mapSize.call(v);
    if (depth >= 2) return `Map(${size})`;
    const items = [];
    for (const [k, x] of mapEntries.call(v)) { if (items.length === 8) break; items.push(`${render(k, depth + 1)} => ${render(x, depth + 1)}`); }
    return list(`Map(${size}){`, '}', items, size, depth);
  }
  if (types.isSet(v)) {
    const size = setSize.call(v);
    if (depth >= 2) return `Set(${size})`;
    const items = [];
    for (const x of setValues.call(v)) { if (items.length === 8) break; items.push(render(x, depth + 1)); }
    return list(`Set(${size}){`, '}', items, size, depth);
  }
  if (types.isDate(v)) return `Date(${Number.isNaN(v.getTime()) ? 'Invalid' : dateISO.call(v)})`;
  const proto = Object.getPrototypeOf(v);
  const type = typeName(v, proto);
  if (types.isNativeError(v)) return `${type}#${identity(v)}(${quote(String(own(v, 'message')?.value ?? ''))})`;
  const keys = Object.keys(v);
  if (proto === ObjectProto || proto === null) {
    if (depth >= 2) return `{…${keys.length}}`;
    return list('{', '}', fields(v, keys, depth, ': '), keys.length, depth);
  }
  // Only the outermost object shows its fields: a field holding another
  // object shows that object's type and identity.
  const shown = depth > 0 ? [] : fields(v, keys.slice(0, 4), depth, '=');
  return `${type}#${identity(v)}${shown.length ? `{${shown.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}` : ''}`;
}

function denseItems(a) {
  const out = [];
  for (let i = 0; i < a.length && out.length < 8; i++) {
    const d = own(a, i);
    out.push(d === undefined ? '<empty>' : 'value' in d ? d : '<getter>');
  }
  return out;
}

function list(open, close, items, total, depth) {
  const shown = items.slice(0, 8).map((x) => (typeof x === 'object' && x !== null && 'value' in x ? render(x.value, depth + 1) : x));
  const more = total > shown.length ? `${shown.length ? ', ' : ''}…+${total - shown.length}` : '';
  return `${open}${shown.join(', ')}${more}${close}`;
}

function fields(v, keys, depth, sep) {
  const out = [];
  for (const k of keys) {
    if (out.length === 8) break;
    const d = own(v, k);
    out.push(`${k}${sep}${d && 'value' in d ? render(d.value, depth + 1) : '<getter>'}`);
  }
  return out;
}

function typeName(v, proto) {
  if (proto === null) return 'Object';
  const ctor = own(proto, 'constructor')?.value;
  const name = typeof ctor === 'function' ? own(ctor, 'name')?.value : undefined;
  return typeof name === 'string' && name ? name : 'Object';
}

function identity(v) {
  let id = ids.get(v);
  if (id === undefined) ids.set(v, (id = ++nextObject));
  return id;
}

// The table of the user's functions, filled as files are instrumented,
// by function id: the call event's constant text (fn, file, line and
// the opening of args), the argument names' text, the text closing the
// call event, the function's file, first body line and line range.
const fnHead = [];
const fnArgs = [];
const fnTail = [];
const fnFile = [];
const fnLine = [];
const fnStart = [];
const fnEnd = [];

function table(file, fns) {
  const base = fnHead.length;
  for (const f of fns) {
    fnHead.push(`,"fn":${JSON.stringify(f.name)},"file":${JSON.stringify(file)},"line":${f.line},"args":[`);
    fnArgs.push(f.args.map((n, i) => `${i ? '],' : ''}[${JSON.stringify(n)},`));
    fnTail.push(f.args.length ? ']]}\n' : ']}\n');
    fnFile.push(file);
    fnLine.push(f.line);
    fnStart.push(f.start);
    fnEnd.push(f.end);
  }
  return base;
}

// quoted is a value's rendering as a JSON string.
function quoted(v) {
  if (typeof v === 'number' && v !== 0) return `"${v}"`;
  const text = render(v);
  return JSON.stringify(text.length > 240 ? text.slice(0, 240) + '…' : text);
}

// Calls: a stack of the calls running on the main thread. A call is an
// object: its id, function, depth on the stack, and how it is ending.
const stack = [];
let nextCall = 0;

// exceptions remembers each exception object seen with the stack frames
// it still has to pass through (file:line pairs read from its stack
// text), so that each frame it crosses gets the line it crossed.
const exceptions = new WeakMap();
let lastException;

function c(fid, args) {
  const parent = stack.length ? stack[stack.length - 1].id : 0;
  const call = { id: ++nextCall, fid, depth: stack.length, mode: 0, v: undefined, line: 0, exc: undefined };
  stack.push(call);
  lastCall = call.id;
  const names = fnArgs[fid];
  let text = `{"k":"call","t":${nowText()},"id":${int(call.id)},"p":${int(parent)}${fnHead[fid]}`;
  for (let i = 0; i < args.length; i++) text += names[i] + quoted(args[i]);
  emit(text + fnTail[fid]);
  return call;
}

// leave takes call and the calls above it off the stack. Usually call
// is on top: pop is then much cheaper than setting the stack's length.
function leave(call) {
  if (stack.length === call.depth + 1) stack.pop();
  else if (stack.length > call.depth) stack.length = call.depth;
}

function r(call, v, line) {
  call.mode = 1;
  call.v = v;
  call.line = line;
  return v;
}

function f(call, endLine) {
  leave(call);
  if (call.mode === 2) {
    emit(`{"k":"unwind","t":${nowText()},"id":${int(call.id)},"type":${JSON.stringify(call.exc.type)},"line":${call.exc.line}}\n`);
    return;
  }
  const line = call.mode === 1 ? call.line : endLine;
  const v = call.v;
  // A number (but 0, which may be -0) is its own text: no quoted string
  // made for it alone.
  if (typeof v === 'number' && v !== 0) emit(`{"k":"ret","t":${nowText()},"id":${int(call.id)},"v":"${v}${retEnd(line, 1)}`);
  else emit(`{"k":"ret","t":${nowText()},"id":${int(call.id)},"v":${quoted(v)}${retEnd(line, 0)}`);
}

// retEnds holds the end of a ret event returning from each line (the
// line and the newline, after the closing quote of the value or not),
// made once per line rather than once per return.
const retEnds = [[], []];
function retEnd(line, afterQuote) {
  const ends = retEnds[afterQuote];
  return ends[line] ?? (ends[line] = `${afterQuote ? '"' : ''},"line":${line}}\n`);
}

// t records a throw statement's exception where it is raised.
function t(call, e, line) {
  raised(call, e, line);
  return e;
}

// u is an exception leaving call: it is recorded passing through (or
// raised in, when nothing saw it before: a native error) the call's line.
function u(call, e) {
  const line = crossing(call, e);
  call.mode = 2;
  call.exc = { type: excType(e), line };
  return e;
}

// h is the user's catch clause in call handling e, going on at line.
function h(call, e, line) {
  if (e === undefined) e = lastException;
  crossing(call, e);
  emit(`{"k":"catch","t":${nowText()},"id":${int(call.id)},"type":${JSON.stringify(excType(e))},"line":${line}}\n`);
}

function raised(call, e, line) {
  lastException = e;
  if (e !== null && (typeof e === 'object' || typeof e === 'function')) exceptions.set(e, { frames: undefined, call: call.id, line, fid: call.fid });
  excEvent(call, e, line, true);
}

// excEvent writes e raised in call at line, or passing into it.
function excEvent(call, e, line, isRaised) {
  emit(`{"k":"exc","t":${nowText()},"id":${int(call.id)},"type":${JSON.stringify(excType(e))},"msg":${JSON.stringify(excMessage(e))},"line":${line},"raised":${isRaised}}\n`);
}

// crossing records e passing through call (once per call) and returns
// the line of call it passed.
function crossing(call, e) {
  const isObject = e !== null && (typeof e === 'object' || typeof e === 'function');
  let seen = isObject ? exceptions.get(e) : undefined;
  if (seen && seen.call === call.id) return seen.line;
  const line = frameLine(call, e, seen) || fnLine[call.fid];
  if (!seen) {
    raised(call, e, line);
    return line;
  }
  seen.call = call.id;
  seen.line = line;
  lastException = e;
  excEvent(call, e, line, false);
  return line;
}

// frameLine is the line of call's function that e's stack trace passes
// through, read from the stack text V8 wrote when e was made (the
// instrumented files keep their lines). Deep recursion beyond
// Error.stackTraceLimit frames is not in the text: 0 then.
function frameLine(call, e, seen) {
  if (!types.isNativeError(e)) return 0;
  if (!seen) seen = { frames: undefined, call: 0, line: 0, fid: -1 };
  if (seen.frames === undefined) {
    const text = stackText(e);
    seen.frames = [];
    for (const m of text.matchAll(/\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?$/gm)) seen.frames.push({ file: m[1].replace(/^file:\/\//, ''), line: Number(m[2]) });
    if (!exceptions.has(e)) exceptions.set(e, seen);
    // A throw statement recorded its own frame already.
    if (seen.fid >= 0) nextFrame(seen.frames, seen.fid);
  }
  return nextFrame(seen.frames, call.fid);
}

// stackText is e's stack trace as V8 wrote it: a data property up to
// Node 22, an accessor of e's own from Node 24 (V8's own getter, called
// only when it is native code: never a getter the program defined).
const functionText = Function.prototype.toString;
function stackText(e) {
  const d = own(e, 'stack');
  if (!d) return '';
  if (typeof d.value === 'string') return d.value;
  if (typeof d.get !== 'function' || !functionText.call(d.get).includes('[native code]')) return '';
  try {
    const text = d.get.call(e);
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

// nextFrame takes frames up to the first in function fid's lines and
// returns its line (0 if none is).
function nextFrame(frames, fid) {
  const file = fnFile[fid];
  while (frames.length) {
    const fr = frames.shift();
    if (fr.file === file && fr.line >= fnStart[fid] && fr.line <= fnEnd[fid]) return fr.line;
  }
  return 0;
}

function excType(e) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return typeof e;
  return typeName(e, Object.getPrototypeOf(e));
}

function excMessage(e) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return render(e);
  const d = own(e, 'message');
  return d && typeof d.value === 'string' ? (d.value.length > 200 ? d.value.slice(0, 200) + '…' : d.value) : render(e);
}

// Suspension of an async function or a generator at await or yield: the
// call leaves the stack (s) and comes back when it resumes (w).
function s(call, v) {
  leave(call);
  return v;
}

function w(call, v) {
  call.depth = stack.length;
  stack.push(call);
  return v;
}

function l(call, line) {
  emit(`{"k":"line","t":${nowText()},"id":${int(call.id)},"line":${line}}\n`);
}

// v records the locals an assignment changed (name, value pairs after
// value) and returns the assignment's value.
function v(call, line, value, ...pairs) {
  for (let i = 0; i < pairs.length; i += 2) {
    emit(`{"k":"set","t":${nowText()},"id":${int(call.id)},"line":${line},"n":${JSON.stringify(pairs[i])},"v":${quoted(pairs[i + 1])}}\n`);
  }
  return value;
}

function v1(call, line, name, value) {
  v(call, line, undefined, name, value);
  return value;
}

// test records a test's end (from the reporter, reporter.mjs).
function test(ev) {
  emit(JSON.stringify({ k: 'test', t: now(), ...ev }) + '\n', true);
}

globalThis[Symbol.for('mcp-debugger.recorder')] = { table, c, r, f, t, u, h, s, w, l, v, v1, test };

// What counts as the user's code: files under the roots, not in a
// node_modules, not the recorder's own.
const roots = cfg.roots.map((p) => path.resolve(p));
const self = __dirname + path.sep;
function isUserFile(file) {
  if (file.startsWith(self) || file.includes(`${path.sep}node_modules${path.sep}`)) return false;
  return roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

const compile = Module.prototype._compile;
Module.prototype._compile = function compileRecorded(content, filename) {
  if (isUserFile(filename)) {
    const out = instrument(content, filename, { module: false, lines: cfg.lines, moduleName: moduleName(filename) });
    // A rewrite V8 refuses (a construct the rewriting gets wrong) runs
    // the file as written, unrecorded, rather than break the program.
    if (out && compiles(out.code, filename)) return compile.call(this, out.code, filename);
  }
  return compile.call(this, content, filename);
};

function compiles(code, filename) {
  try {
    vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
    return true;
  } catch (e) {
    process.emitWarning(`mcp-debugger: ${filename} is not recorded: its rewrite does not compile (${e.message})`);
    return false;
  }
}

function moduleName(file) {
  const base = path.basename(file);
  return base.replace(/\.(c|m)?(j|t)sx?$/, '');
}

emit(JSON.stringify({ k: 'start', t: 0, lang: 'javascript', pid: process.pid, version: 1, cwd: process.cwd(), argv: process.argv.slice(1), runtime: `Node.js ${process.version} (${process.execPath})` }) + '\n');

let uncaught;
process.on('uncaughtExceptionMonitor', (e) => { uncaught = e; });
process.on('exit', (code) => {
  finish(uncaught === undefined ? { exit: code } : { exit: code, type: excType(uncaught), msg: excMessage(uncaught) });
});
