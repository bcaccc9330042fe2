'use strict';
// Rewrites a user's JavaScript file so that each of its functions reports
// to the recorder (recorder.js) as it runs: its call with the arguments,
// its return value, the exceptions it throws, catches or lets through and,
// for the functions named in `lines`, each statement and each assignment
// to its locals. Only text is inserted, never a line break, so every line
// (and every stack trace's line) stays where it was.
//
// The parser is the acorn that Node bundles for its own use
// (lib/internal/deps), reachable with --expose-internals: Node has no
// public JavaScript parser, and this keeps npm packages out of the binary.

const acorn = require('internal/deps/acorn/acorn/dist/acorn');

// R is the recorder's name inside a rewritten module, B the first id of
// the module's functions in the recorder's table, C the current call.
const R = '$$mcpR', B = '$$mcpB', C = '$$mcpC', E = '$$mcpE';

// instrument returns source rewritten, and the functions it found
// ({name, line}), or null when the file does not parse (it then runs as
// written, unrecorded).
function instrument(source, file, { module: isModule, lines, moduleName }) {
  let ast;
  try {
    ast = acorn.parse(source, {
      ecmaVersion: 'latest', sourceType: isModule ? 'module' : 'script', locations: true,
      allowHashBang: true, allowReturnOutsideFunction: !isModule, allowAwaitOutsideFunction: isModule,
    });
  } catch {
    return null;
  }
  const edits = [];
  const fns = [];
  const lineSet = new Set(lines);
  let depth = 0;
  // open and close are text put before a node's start and after its end;
  // depth orders text at one offset: outer openings first, inner closings
  // first.
  const open = (pos, text) => edits.push({ pos, close: 0, depth, text });
  const close = (pos, text) => edits.push({ pos, close: 1, depth, text });

  function walk(node, ctx) {
    if (!node || typeof node.type !== 'string') return;
    depth++;
    visit(node, ctx);
    depth--;
  }
  function children(node, ctx) {
    // A name waiting for a function is its direct child's only.
    if (ctx.pending !== undefined || ctx.qualified) ctx = { ...ctx, pending: undefined, qualified: false };
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue;
      const v = node[key];
      if (Array.isArray(v)) for (const c of v) walk(c, ctx);
      else if (v && typeof v.type === 'string') walk(v, ctx);
    }
  }

  function visit(node, ctx) {
    switch (node.type) {
      case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression':
        return fn(node, ctx);
      case 'ClassDeclaration': case 'ClassExpression': {
        const name = node.id ? node.id.name : ctx.pending || '<class>';
        return children(node, { ...ctx, cls: qualify(ctx, name), pending: undefined });
      }
      case 'MethodDefinition': case 'PropertyDefinition': case 'Property': {
        const key = keyName(node.key, node.computed);
        if (node.computed) walk(node.key, ctx);
        const prefix = node.kind === 'get' ? 'get ' : node.kind === 'set' ? 'set ' : '';
        return walk(node.value, { ...ctx, pending: ctx.cls !== undefined && node.type !== 'Property' ? `${ctx.cls}.${prefix}${key}` : prefix + key, qualified: ctx.cls !== undefined && node.type !== 'Property' });
      }
      case 'VariableDeclarator':
        walk(node.id, ctx);
        if (node.init) {
          if (node.id.type === 'Identifier') return walk(node.init, { ...ctx, pending: node.id.name }), setOnDeclare(node, ctx);
          walk(node.init, ctx);
        }
        return;
      case 'AssignmentExpression':
        walk(node.left, ctx);
        walk(node.right, { ...ctx, pending: memberName(node.left) });
        return recordSet(node, node.left, ctx);
      case 'UpdateExpression':
        children(node, ctx);
        return recordSet(node, node.argument, ctx);
      case 'ReturnStatement':
        children(node, ctx);
        if (ctx.fn) {
          if (node.argument) {
            open(node.argument.start, `${R}.r(${C},(`);
            close(node.argument.end, `),${line(node)})`);
          } else {
            close(node.start + 'return'.length, ` ${R}.r(${C},undefined,${line(node)})`);
          }
        }
        return;
      case 'ThrowStatement':
        children(node, ctx);
        if (ctx.fn) {
          open(node.argument.start, `${R}.t(${C},(`);
          close(node.argument.end, `),${line(node)})`);
        }
        return;
      case 'CatchClause':
        if (node.param) walk(node.param, ctx);
        walk(node.body, ctx);
        if (ctx.fn) catchClause(node, ctx);
        return;
      case 'AwaitExpression': case 'YieldExpression':
        children(node, ctx);
        if (ctx.fn) {
          // Suspending hands control back to the caller: the call leaves
          // the recorder's stack until it resumes.
          open(node.start, `${R}.w(${C},`);
          if (node.argument) {
            open(node.argument.start, `${R}.s(${C},(`);
            close(node.argument.end, '))');
          } else {
            close(node.end, ` ${R}.s(${C},undefined)`);
          }
          close(node.end, ')');
        }
        return;
      default:
        children(node, ctx);
        if (ctx.lines && isStatementList(node)) linesOf(node, ctx);
    }
  }

  function fn(node, ctx) {
    const name = node.id && node.type !== 'ArrowFunctionExpression' && !ctx.pending ? node.id.name : ctx.pending || (node.id && node.id.name) || '<anonymous>';
    const qname = ctx.qualified ? name : qualify(ctx, name);
    const fnCtx = { fn: true, parent: qname, cls: undefined, locals: new Set(), lines: false };
    const body = node.body;
    const first = body.type === 'BlockStatement' ? (body.body.find((s) => !s.directive) || body) : body;
    const id = fns.length;
    fns.push({ name: `${moduleName}.${qname}`, line: first.loc.start.line, start: node.loc.start.line, end: node.loc.end.line });
    fnCtx.lines = lineSet.has(`${moduleName}.${qname}`) || lineSet.has(qname) || lineSet.has(name);
    for (const p of node.params) boundNames(p, fnCtx.locals);
    if (fnCtx.lines) declaredNames(body, fnCtx.locals);
    for (const p of node.params) walk(p, { ...ctx, pending: undefined });
    const args = node.params.map((p) => [...boundNames(p, new Set())]).flat();
    fns[id].args = args;
    const enter = `const ${C}=${R}.c(${B}+${id},[${args.join(',')}]);try{`;
    const leave = `}catch(${E}){throw ${R}.u(${C},${E})}finally{${R}.f(${C},${endLine(node)})}`;
    if (body.type === 'BlockStatement') {
      const directives = body.body.filter((s) => s.directive);
      const at = directives.length ? directives[directives.length - 1].end : body.start + 1;
      depth++;
      open(at, enter);
      walk(body, fnCtx);
      close(body.end - 1, leave);
      depth--;
    } else {
      // The body's own node starts inside its parentheses, if any: the
      // block replaces everything from the arrow to the function's end.
      depth++;
      open(source.lastIndexOf('=>', body.start) + 2, `{${enter}return ${R}.r(${C},(`);
      walk(body, fnCtx);
      close(node.end, `),${body.loc.start.line})${leave}}`);
      depth--;
    }
  }

  function qualify(ctx, name) {
    return ctx.parent ? `${ctx.parent}.${name}` : name;
  }

  function catchClause(node, ctx) {
    const first = node.body.body[0] || node.body;
    let param = node.param && node.param.type === 'Identifier' ? node.param.name : 'undefined';
    if (!node.param) {
      open(node.body.start, `(${E}) `);
      param = E;
    }
    open(node.body.start + 1, `${R}.h(${C},${param},${first.loc.start.line});`);
  }

  function setOnDeclare(node, ctx) {
    if (!ctx.lines || !ctx.locals.has(node.id.name)) return;
    open(node.init.start, `${R}.v1(${C},${line(node)},${JSON.stringify(node.id.name)},(`);
    close(node.init.end, '))');
  }

  function recordSet(node, target, ctx) {
    if (!ctx.lines) return;
    const names = [...boundNames(target, new Set())].filter((n) => ctx.locals.has(n));
    if (!names.length) return;
    open(node.start, `${R}.v(${C},${line(node)},(`);
    close(node.end, `),${names.map((n) => `${JSON.stringify(n)},${n}`).join(',')})`);
  }

  function linesOf(node, ctx) {
    const list = node.type === 'SwitchCase' ? node.consequent : node.body;
    if (Array.isArray(list)) {
      for (const s of list) if (!s.directive) open(s.start, `${R}.l(${C},${line(s)});`);
      return;
    }
    // A loop's or an if's single statement becomes a block holding the
    // line event and the statement.
    for (const s of [node.body, node.consequent, node.alternate]) {
      if (s && s.type !== 'BlockStatement' && !s.type.endsWith('Declaration')) {
        open(s.start, `{${R}.l(${C},${line(s)});`);
        close(s.end, '}');
      }
    }
    if ((node.type === 'ForOfStatement' || node.type === 'ForInStatement') && node.body.type === 'BlockStatement') {
      const names = [...boundNames(node.left.type === 'VariableDeclaration' ? node.left.declarations[0].id : node.left, new Set())].filter((n) => ctx.locals.has(n));
      if (names.length) open(node.body.start + 1, `${R}.v(${C},${line(node)},0,${names.map((n) => `${JSON.stringify(n)},${n}`).join(',')});`);
    }
  }

  walk(ast, {});
  if (!fns.length) return { code: source, fns };
  const directives = ast.body.filter((s) => s.directive);
  const header = `var ${R}=globalThis[Symbol.for('mcp-debugger.recorder')],${B}=${R}.table(${JSON.stringify(file)},${JSON.stringify(fns)});`;
  const headerAt = directives.length ? directives[directives.length - 1].end : (ast.body[0] ? ast.body[0].start : source.length);
  edits.push({ pos: headerAt, close: 0, depth: -1, text: header });
  return { code: apply(source, edits), fns };
}

function apply(source, edits) {
  edits.sort((a, b) => a.pos - b.pos || b.close - a.close || (a.close ? b.depth - a.depth : a.depth - b.depth));
  const out = [];
  let at = 0;
  for (const e of edits) {
    out.push(source.slice(at, e.pos), e.text);
    at = e.pos;
  }
  out.push(source.slice(at));
  return out.join('');
}

function isStatementList(node) {
  switch (node.type) {
    case 'BlockStatement': case 'SwitchCase': case 'IfStatement': case 'ForStatement': case 'ForInStatement':
    case 'ForOfStatement': case 'WhileStatement': case 'DoWhileStatement':
      return true;
  }
  return false;
}

function line(node) {
  return node.loc.start.line;
}

function endLine(node) {
  return node.body.type === 'BlockStatement' ? node.body.loc.end.line : node.body.loc.start.line;
}

function keyName(key, computed) {
  if (computed) return '[computed]';
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'PrivateIdentifier') return '#' + key.name;
  return String(key.value);
}

function memberName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed) {
    const object = memberName(node.object) || (node.object.type === 'ThisExpression' ? 'this' : '');
    return object && `${object}.${keyName(node.property, false)}`;
  }
  return undefined;
}

function boundNames(p, into) {
  if (!p) return into;
  switch (p.type) {
    case 'Identifier': into.add(p.name); break;
    case 'AssignmentPattern': boundNames(p.left, into); break;
    case 'RestElement': boundNames(p.argument, into); break;
    case 'ArrayPattern': for (const e of p.elements) boundNames(e, into); break;
    case 'ObjectPattern': for (const q of p.properties) boundNames(q.type === 'RestElement' ? q.argument : q.value, into); break;
  }
  return into;
}

// declaredNames collects the locals a function body declares, not looking
// into nested functions.
function declaredNames(node, into) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'VariableDeclarator') boundNames(node.id, into);
  if (node.type === 'FunctionDeclaration') {
    if (node.id) into.add(node.id.name);
    return;
  }
  if (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' || node.type.startsWith('Class')) return;
  for (const key of Object.keys(node)) {
    if (key === 'loc') continue;
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) declaredNames(c, into);
    else if (v && typeof v.type === 'string') declaredNames(v, into);
  }
}

module.exports = { instrument };
