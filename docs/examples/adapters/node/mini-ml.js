// mini-ml: a small interpreter of the ML-like notation (docs/examples/notations/ml.toml) in
// JavaScript, computing with doubles. It stands for "your implementation": it knows nothing of
// goi. `node mini-ml.js FILE` prints the value; as a module, parse() and evaluate().
// MINI_ML_BUG=sub-reversed plants a bug (a - b computed as b - a), for the adapter's test.
'use strict';

class ParseError extends Error { constructor(m) { super(m); this.name = 'ParseError'; } }
class RuntimeError extends Error { constructor(m) { super(m); this.name = 'RuntimeError'; } }

const KEYWORDS = new Set(['fun', 'let', 'in', 'rec', 'if', 'then', 'else', 'match', 'with']);

function tokenize(text) {
  const tokens = [];
  const re = /\s*(?:(\d+)|([a-z][a-z0-9_]*)|(->|[()+\-*\/=]))/y;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new ParseError(`syntax error at offset ${i}: unexpected ${JSON.stringify(text[i])}`);
    tokens.push(m[1] !== undefined ? { kind: 'num', value: Number(m[1]) }
      : m[2] !== undefined ? { kind: KEYWORDS.has(m[2]) ? m[2] : 'name', value: m[2] }
      : { kind: m[3] });
    i = re.lastIndex;
  }
  return tokens;
}

function parse(text) {
  const t = tokenize(text);
  let i = 0;
  const peek = () => (t[i] ? t[i].kind : 'end');
  const take = (kind) => {
    if (peek() !== kind) throw new ParseError(`syntax error: expected ${kind}, got ${peek()}`);
    return t[i++];
  };
  function expr() {
    if (peek() === 'fun') { take('fun'); const x = take('name').value; take('->'); return { k: 'lam', x, body: expr() }; }
    if (peek() === 'let') {
      take('let'); const x = take('name').value; const params = [];
      while (peek() === 'name') params.push(take('name').value);
      take('='); let bound = expr(); take('in');
      for (const p of params.reverse()) bound = { k: 'lam', x: p, body: bound };
      return { k: 'let', x, bound, body: expr() };
    }
    return sum();
  }
  function sum() {
    let left = product();
    while (peek() === '+' || peek() === '-') { const op = take(peek()).kind; left = { k: 'op', op, left, right: product() }; }
    return left;
  }
  function product() {
    let left = app();
    while (peek() === '*' || peek() === '/') { const op = take(peek()).kind; left = { k: 'op', op, left, right: app() }; }
    return left;
  }
  function app() {
    let f = atom();
    while (['num', 'name', '('].includes(peek())) f = { k: 'app', f, a: atom() };
    return f;
  }
  function atom() {
    if (peek() === 'num') return { k: 'num', value: take('num').value };
    if (peek() === 'name') return { k: 'var', x: take('name').value };
    take('('); const e = expr(); take(')'); return e;
  }
  const e = expr();
  if (peek() !== 'end') throw new ParseError(`syntax error: unexpected ${peek()}`);
  return e;
}

function evaluate(e, env = new Map()) {
  switch (e.k) {
    case 'num': return e.value;
    case 'var':
      if (!env.has(e.x)) throw new RuntimeError(`unbound variable ${e.x}`);
      return env.get(e.x);
    case 'lam': return { closure: e, env };
    case 'let': return evaluate(e.body, new Map(env).set(e.x, evaluate(e.bound, env)));
    case 'app': {
      const f = evaluate(e.f, env), a = evaluate(e.a, env);
      if (typeof f === 'number') throw new RuntimeError('applied a number');
      return evaluate(f.closure.body, new Map(f.env).set(f.closure.x, a));
    }
    case 'op': {
      const a = evaluate(e.left, env), b = evaluate(e.right, env);
      if (typeof a !== 'number' || typeof b !== 'number') throw new RuntimeError(`${e.op} on a function`);
      if (e.op === '+') return a + b;
      if (e.op === '-') return process.env.MINI_ML_BUG === 'sub-reversed' ? b - a : a - b;
      if (e.op === '*') return a * b;
      return a / b;
    }
  }
  throw new RuntimeError(`unknown node ${e.k}`);
}

module.exports = { parse, evaluate, ParseError, RuntimeError };

if (require.main === module) {
  const text = require('fs').readFileSync(process.argv[2], 'utf8');
  let ast;
  try { ast = parse(text); } catch (err) { console.log(err.message); process.exit(2); }
  const v = evaluate(ast);
  console.log(typeof v === 'number' ? String(v) : '<fun>');
}
