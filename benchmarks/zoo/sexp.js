// The zoo's S-expression machine (issue 51): JavaScript, doubles, its own notation (sexp.toml),
// the persistent protocol. Values are shared as a graph machine shares them: a let-bound value
// and a closure's captured values are nodes that every use points at, copied or contracted as
// they are used. Its planted bugs (GOI_BUGS, comma-separated; unset: all) live in sharing and
// weakening, as real DGoIM implementations' do, and need programs the zoo's others do not:
//   wide-contraction  a value computed by an operation and bound by a let, used four times or
//                     more, in a program with a binder nobody uses (a weakening beside the
//                     contraction), gets stuck: no transition applies at the contraction node
//   copied-capture    a closure applied twice or more that uses a computed let-bound value it
//                     captures twice or more: every copy after the first reads it as 0
'use strict';
const readline = require('readline');

const ALL = ['wide-contraction', 'copied-capture'];
const ON = new Set(process.env.GOI_BUGS === undefined ? ALL : process.env.GOI_BUGS.split(',').filter(Boolean));

class ParseError extends Error { constructor(m) { super(m); this.name = 'ParseError'; } }

function parse(text) {
  const tokens = text.match(/\(|\)|[^\s()]+/g) || [];
  let p = 0;
  function read() {
    if (p >= tokens.length) throw new ParseError('syntax error: unexpected end of input');
    const t = tokens[p++];
    if (t === ')') throw new ParseError('syntax error: unexpected )');
    if (t !== '(') {
      if (/^\d+(\.\d+)?$/.test(t)) return { k: 'num', v: Number(t) };
      if (/^[a-z][a-z0-9]*$/.test(t)) return { k: 'var', x: t };
      throw new ParseError(`syntax error: unexpected ${t}`);
    }
    const head = tokens[p];
    let e;
    if (head === 'lambda') {
      p++; expect('('); const x = name(); expect(')'); e = { k: 'lam', x, body: read() };
    } else if (head === 'let') {
      p++; expect('('); expect('('); const x = name(); const bound = read(); expect(')'); expect(')');
      e = { k: 'let', x, bound, body: read() };
    } else if (['+', '-', '*', '/'].includes(head)) {
      p++; e = { k: 'op', op: head, left: read(), right: read() };
    } else {
      e = { k: 'app', f: read(), a: read() };
    }
    expect(')');
    return e;
  }
  function expect(t) { if (tokens[p++] !== t) throw new ParseError(`syntax error: expected ${t}`); }
  function name() { const t = tokens[p++]; if (!/^[a-z][a-z0-9]*$/.test(t || '')) throw new ParseError(`syntax error: a name, not ${t}`); return t; }
  const e = read();
  if (p !== tokens.length) throw new ParseError('syntax error: more after the program');
  return e;
}

function uses(e, x) {
  switch (e.k) {
    case 'num': return 0;
    case 'var': return e.x === x ? 1 : 0;
    case 'lam': return e.x === x ? 0 : uses(e.body, x);
    case 'let': return uses(e.bound, x) + (e.x === x ? 0 : uses(e.body, x));
    case 'app': return uses(e.f, x) + uses(e.a, x);
    default: return uses(e.left, x) + uses(e.right, x);
  }
}

function weakens(e) {  // a binder nobody uses, anywhere in the program
  switch (e.k) {
    case 'num': case 'var': return false;
    case 'lam': return uses(e.body, e.x) === 0 || weakens(e.body);
    case 'let': return uses(e.body, e.x) === 0 || weakens(e.bound) || weakens(e.body);
    case 'app': return weakens(e.f) || weakens(e.a);
    default: return weakens(e.left) || weakens(e.right);
  }
}

let weakening = false;

function evaluate(e, env, depth) {
  if (depth > 10000) throw new RangeError('Maximum call stack size exceeded');
  switch (e.k) {
    case 'num': return e.v;
    case 'var': {
      for (let f = env; f; f = f.next) {
        if (f.x === e.x) {
          if (f.copies !== undefined) { f.copies += 1; if (f.copies > 1 && f.computed) return 0; }
          return f.v;
        }
      }
      throw new Error(`unbound ${e.x}`);
    }
    case 'lam': return { lam: e, env };
    case 'let': {
      const v = evaluate(e.bound, env, depth + 1);
      const n = uses(e.body, e.x);
      if (ON.has('wide-contraction') && weakening && e.bound.k === 'op' && n >= 4)
        throw new Error(`stuck: no transition applies at contraction node c${n} (arity ${n})`);
      return evaluate(e.body, { x: e.x, v, computed: e.bound.k === 'op', next: env }, depth + 1);
    }
    case 'app': {
      const f = evaluate(e.f, env, depth + 1);
      const a = evaluate(e.a, env, depth + 1);
      if (typeof f === 'number') throw new TypeError('applied a number');
      f.applied = (f.applied || 0) + 1;
      let closed = f.env;
      if (ON.has('copied-capture') && f.applied > 1) {
        // the closure's box copied: its captured computed values, each used twice or more in its body, read anew
        const copy = (fr) => (fr ? { ...fr, next: copy(fr.next), copies: fr.computed && uses(f.lam.body, fr.x) >= 2 ? 1 : undefined } : null);
        closed = copy(f.env);
      }
      return evaluate(f.lam.body, { x: f.lam.x, v: a, next: closed }, depth + 1);
    }
    default: {
      const l = evaluate(e.left, env, depth + 1), r = evaluate(e.right, env, depth + 1);
      if (typeof l !== 'number' || typeof r !== 'number') throw new TypeError(`${e.op} on a function`);
      return e.op === '+' ? l + r : e.op === '-' ? l - r : e.op === '*' ? l * r : l / r;
    }
  }
}

function answer(program) {
  let e;
  try { e = parse(program); } catch (err) { return { rejected: err.message }; }
  try {
    weakening = weakens(e);
    const v = evaluate(e, null, 0);
    return { value: typeof v === 'number' ? String(v) : 'λ' };
  } catch (err) {
    return { error: `${err.name}: ${err.message}` };
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: r.id, ...answer(r.program) }) + '\n');
});
