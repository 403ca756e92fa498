// The zoo's PCF-like interpreter (issue 40): JavaScript, doubles, its own notation (pcf.toml),
// the persistent protocol. An environment machine with an explicit continuation stack; its
// planted bugs (GOI_BUGS, comma-separated; unset: all):
//   plus-crash        every addition throws (a dominant bug: most programs add)
//   stuck-contraction a λ whose parameter is used three times or more gets stuck when applied
//                     (no transition applies at the contraction node)
//   deep-capture      a variable bound three binders out or further is looked up one frame
//                     too near (shows only on programs deeper than the survey's first stages)
'use strict';
const readline = require('readline');

const ALL = ['plus-crash', 'stuck-contraction', 'deep-capture'];
const ON = new Set(process.env.GOI_BUGS === undefined ? ALL : process.env.GOI_BUGS.split(',').filter(Boolean));

class ParseError extends Error { constructor(m) { super(m); this.name = 'ParseError'; } }
const KEYWORDS = new Set(['fn', 'let', 'val', 'in', 'end', 'fun', 'if', 'then', 'else']);

function parse(text) {
  const re = /\s*(?:(\d+(?:\.\d+)?)|([a-z][a-z0-9]*)|(=>|[()+\-*\/=~]))/y;
  const t = [];
  let i = 0;
  while (i < text.length && !/^\s*$/.test(text.slice(i))) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new ParseError(`syntax error at ${i}: unexpected ${JSON.stringify(text[i])}`);
    t.push(m[1] !== undefined ? ['num', Number(m[1])] : m[2] !== undefined ? [KEYWORDS.has(m[2]) ? m[2] : 'name', m[2]] : [m[3]]);
    i = re.lastIndex;
  }
  let p = 0;
  const peek = () => (p < t.length ? t[p][0] : 'end-of-input');
  const take = (k) => { if (peek() !== k) throw new ParseError(`syntax error: expected ${k}, got ${peek()}`); return t[p++][1]; };
  let uses = 0;
  function expr() {
    if (peek() === 'fn') { take('fn'); const x = take('name'); take('=>'); return { k: 'lam', x, body: expr(), id: uses++ }; }
    return binary(0);
  }
  function binary(level) {
    if (level === 2) return app();
    let left = binary(level + 1);
    const ops = level === 0 ? ['+', '-'] : ['*', '/'];
    while (ops.includes(peek())) { const op = peek(); p++; left = { k: 'op', op, left, right: binary(level + 1) }; }
    return left;
  }
  function app() {
    let f = atom();
    while (['num', 'name', '(', '~', 'let'].includes(peek())) f = { k: 'app', f, a: atom() };
    return f;
  }
  function atom() {
    if (peek() === 'num') return { k: 'num', v: take('num') };
    if (peek() === '~') { take('~'); return { k: 'num', v: -take('num') }; }
    if (peek() === 'name') return { k: 'var', x: take('name') };
    if (peek() === 'let') {
      take('let'); take('val'); const x = take('name'); take('='); const bound = expr(); take('in');
      const body = expr(); take('end'); return { k: 'let', x, bound, body };
    }
    take('('); const e = expr(); take(')'); return e;
  }
  const e = expr();
  if (p !== t.length) throw new ParseError(`syntax error: unexpected ${peek()}`);
  return e;
}

function occurrences(e, x) {
  switch (e.k) {
    case 'num': return 0;
    case 'var': return e.x === x ? 1 : 0;
    case 'lam': return e.x === x ? 0 : occurrences(e.body, x);
    case 'let': return occurrences(e.bound, x) + (e.x === x ? 0 : occurrences(e.body, x));
    case 'app': return occurrences(e.f, x) + occurrences(e.a, x);
    default: return occurrences(e.left, x) + occurrences(e.right, x);
  }
}

// environments: linked frames { x, v, next }
function lookup(env, x) {
  let depth = 0;
  for (let f = env; f; f = f.next, depth++) {
    if (f.x === x) {
      if (ON.has('deep-capture') && depth >= 3 && f.prev) return f.prev.v;
      return f.v;
    }
  }
  throw new Error(`unbound variable ${x}`);
}
function bind(env, x, v) { const f = { x, v, next: env, prev: null }; if (env) env.prev = f; return f; }

function run(e0) {
  // the machine: a control (an expression with its environment, or a value) and a stack
  let control = { e: e0, env: null }, value, stack = [], steps = 0;
  for (;;) {
    if (++steps > 5e6) throw new Error('out of fuel');
    if (control) {
      const { e, env } = control;
      switch (e.k) {
        case 'num': value = e.v; control = null; break;
        case 'var': value = lookup(env, e.x); control = null; break;
        case 'lam': value = { lam: e, env }; control = null; break;
        case 'let': stack.push({ k: 'let', e, env }); control = { e: e.bound, env }; break;
        case 'app': stack.push({ k: 'arg', e, env }); control = { e: e.f, env }; break;
        case 'op': stack.push({ k: 'right', e, env }); control = { e: e.left, env }; break;
      }
      continue;
    }
    const top = stack.pop();
    if (!top) return value;
    switch (top.k) {
      case 'let': control = { e: top.e.body, env: bind(top.env, top.e.x, value) }; break;
      case 'arg': stack.push({ k: 'call', f: value }); control = { e: top.e.a, env: top.env }; break;
      case 'call': {
        const f = top.f;
        if (typeof f === 'number') throw new TypeError('applied a number');
        if (ON.has('stuck-contraction') && occurrences(f.lam.body, f.lam.x) >= 3)
          throw new Error(`stuck: no transition applies at contraction node c${100 + f.lam.id} (stack depth ${stack.length})`);
        control = { e: f.lam.body, env: bind(f.env, f.lam.x, value) };
        break;
      }
      case 'right': stack.push({ k: 'apply', op: top.e.op, left: value }); control = { e: top.e.right, env: top.env }; break;
      case 'apply': {
        const a = top.left, b = value;
        if (typeof a !== 'number' || typeof b !== 'number') throw new TypeError(`${top.op} on a function`);
        if (top.op === '+') { if (ON.has('plus-crash')) throw new TypeError("Cannot read properties of undefined (reading 'plus')"); value = a + b; }
        else if (top.op === '-') value = a - b;
        else if (top.op === '*') value = a * b;
        else value = a / b;
        break;
      }
    }
  }
}

function answer(program) {
  let e;
  try { e = parse(program); } catch (err) { return err instanceof ParseError ? { rejected: err.message } : { error: String(err) }; }
  try {
    const v = run(e);
    return { value: typeof v === 'number' ? String(v) : 'λ' };
  } catch (err) {
    return { error: `${err.name}: ${err.message}` };
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: r.id, ...answer(r.program) }) + '\n');
});
