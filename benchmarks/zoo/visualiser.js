// A JavaScript implementation of the abductive calculus in the visualiser's notation, for the
// bug-finding benchmark (benchmarks/bench_bugfinding.py): a direct, environment-based
// interpreter in IEEE floating point, written apart from goi's machine. Two planted bugs,
// selected by GOI_BUGS (a comma-separated list; default: all of them):
//   modified-model  f applied to a modified parameter vector (k ⊠ p, p ⊞ q, …) when the model is
//                   a function looks for the vector's parameter list where there is none: a TypeError;
//   odd-fold        fold over a vector of odd length steps its index by two and never stops.
// Protocol: one program on standard input (one JSON answer), or with --lines one JSON request
// per line ({"id", "program"}) and one answer per line.
"use strict";

const BUGS = new Set((process.env.GOI_BUGS ?? "modified-model,odd-fold").split(",").filter(Boolean));

// ---- parsing -------------------------------------------------------------------------------
const OPS = { "+": "add", "-": "sub", "*": "mul", "/": "div", "⊞": "vadd", "⊠": "smul", "⊡": "dot" };
const KEYWORDS = new Set(["let", "in", "abs", "fold", "A"]);

function tokenize(text) {
  const tokens = [];
  const re = /\s+|(\d+(?:\.\d+)?)|([a-z'][A-Za-z'_]*|A)|([λ.(){},=+\-*\/⊞⊠⊡])/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new SyntaxError(`unexpected character '${text[i]}' at ${i + 1}`);
    if (m[1] !== undefined) tokens.push({ kind: "num", value: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: KEYWORDS.has(m[2]) ? m[2] : "id", value: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: m[3], value: m[3] });
    i = re.lastIndex;
  }
  tokens.push({ kind: "eof", value: "end of input" });
  return tokens;
}

class Parser {
  constructor(text) { this.t = tokenize(text); this.i = 0; this.provs = 0; }
  peek() { return this.t[this.i]; }
  next() { return this.t[this.i++]; }
  expect(kind) {
    const tok = this.next();
    if (tok.kind !== kind) throw new SyntaxError(`expected ${kind} but found '${tok.value}'`);
    return tok;
  }
  program() { const t = this.term(); this.expect("eof"); return t; }
  term() {
    const tok = this.peek();
    if (tok.kind === "λ") {
      this.next(); const x = this.expect("id").value; this.expect(".");
      return { k: "lam", x, body: this.term() };
    }
    if (tok.kind === "A") {
      this.next(); this.expect("("); const f = this.expect("id").value; this.expect(",");
      const p = this.expect("id").value; this.expect(")"); this.expect(".");
      return { k: "dec", f, p, body: this.term() };
    }
    if (tok.kind === "let") {
      this.next();
      if (this.peek().kind === "(") {
        this.next(); const f = this.expect("id").value; this.expect(",");
        const p = this.expect("id").value; this.expect(")"); this.expect("="); this.expect("abs");
        const model = this.term(); this.expect("in"); const body = this.term();
        return { k: "app", fun: { k: "dec", f, p, body }, arg: model };
      }
      const x = this.expect("id").value; this.expect("=");
      const bound = this.term(); this.expect("in"); const body = this.term();
      return { k: "app", fun: { k: "lam", x, body }, arg: bound };
    }
    let left = this.application();
    while (OPS[this.peek().kind]) {
      const op = OPS[this.next().kind];
      left = { k: "op", op, left, right: this.application() };
    }
    return left;
  }
  application() {
    if (this.peek().kind === "fold") {
      this.next(); const fun = this.atom(); const vec = this.atom();
      return { k: "fold", fun, vec };
    }
    let t = this.atom();
    while (["num", "id", "(", "{"].includes(this.peek().kind)) t = { k: "app", fun: t, arg: this.atom() };
    return t;
  }
  atom() {
    const tok = this.next();
    if (tok.kind === "num") return { k: "const", value: Number(tok.value) };
    if (tok.kind === "id") return { k: "var", name: tok.value };
    if (tok.kind === "{") {
      const n = this.expect("num"); this.expect("}");
      return { k: "prov", value: Number(n.value), index: this.provs++ };
    }
    if (tok.kind === "(") { const t = this.term(); this.expect(")"); return t; }
    throw new SyntaxError(`unexpected '${tok.value}'`);
  }
}

// free variables and provisional constants of each subterm, computed once
function annotate(t) {
  const kids = { lam: ["body"], dec: ["body"], app: ["fun", "arg"], op: ["left", "right"], fold: ["fun", "vec"] }[t.k] || [];
  t.fv = new Set(); t.provs = new Set();
  if (t.k === "var") t.fv.add(t.name);
  if (t.k === "prov") t.provs.add(t.index);
  for (const key of kids) {
    annotate(t[key]);
    for (const v of t[key].fv) t.fv.add(v);
    for (const p of t[key].provs) t.provs.add(p);
  }
  if (t.k === "lam") t.fv.delete(t.x);
  if (t.k === "dec") { t.fv.delete(t.f); t.fv.delete(t.p); }
  return t;
}

// ---- values: numbers as expressions over parameter references ----------------------------
const ref = (index) => ({ ref: index });
const isNum = (x) => typeof x === "number";
function arith(op, x, y) {
  if (op === "add") return x + y;
  if (op === "sub") return x - y;
  if (op === "mul") return x * y;
  return y === 0 ? 0 : x / y;
}
const num = (op, x, y) => (isNum(x) && isNum(y) ? arith(op, x, y) : { op, x, y });
function value(e, params) {
  if (isNum(e)) return e;
  if (e.ref !== undefined) return params[e.ref];
  return arith(e.op, value(e.x, params), value(e.y, params));
}
function substExpr(e, sigma) {
  if (isNum(e)) return e;
  if (e.ref !== undefined) return sigma.has(e.ref) ? sigma.get(e.ref) : e;
  return num(e.op, substExpr(e.x, sigma), substExpr(e.y, sigma));
}
const refoot = (fp, gone, carried) => {
  if (![...fp].some((k) => gone.has(k))) return fp;
  return new Set([...[...fp].filter((k) => !gone.has(k)), ...carried]);
};
function substScope(env, prov, sigma, carried) {
  const gone = new Set(sigma.keys());
  const newEnv = new Map(), newProv = new Map();
  for (const [k, [v, fp]] of env) newEnv.set(k, [substValue(v, sigma, carried), refoot(fp, gone, carried)]);
  for (const [k, [e, fp]] of prov) newProv.set(k, [substExpr(e, sigma), refoot(fp, gone, carried)]);
  for (const [k, e] of sigma) if (!newProv.has(k)) newProv.set(k, [e, carried]);
  return [newEnv, newProv];
}
function substValue(v, sigma, carried) {
  if (sigma.size === 0) return v;
  if (Array.isArray(v)) return v.map((x) => substExpr(x, sigma));
  if (v.closure) { const [env, prov] = substScope(v.env, v.prov, sigma, carried); return { ...v, env, prov }; }
  if (v.decoupled) {
    const inner = new Map([...sigma].filter(([k]) => !v.refs.includes(k)));
    return { decoupled: true, model: substValue(v.model, inner, carried), refs: v.refs };
  }
  return substExpr(v, sigma);
}

class Interpreter {
  constructor(params) { this.params = params; }
  footprint(t, env, prov) {
    const own = new Set();
    for (const k of t.provs) { if (prov.has(k)) for (const j of prov.get(k)[1]) own.add(j); else own.add(k); }
    for (const x of t.fv) for (const j of env.get(x)[1]) own.add(j);
    return own;
  }
  eval(t, env, prov) {
    switch (t.k) {
      case "var": return env.get(t.name)[0];
      case "const": return t.value;
      case "prov": return prov.has(t.index) ? prov.get(t.index)[0] : ref(t.index);
      case "lam": return { closure: true, x: t.x, body: t.body, env, prov };
      case "dec": return { closure: true, decoupling: true, node: t, env, prov };
      case "app": {
        const arg = this.eval(t.arg, env, prov);
        const fun = this.eval(t.fun, env, prov);
        return this.apply(fun, arg, this.footprint(t.arg, env, prov), t.arg);
      }
      case "op": {
        const right = this.eval(t.right, env, prov);
        const left = this.eval(t.left, env, prov);
        return this.sigma(t.op, left, right);
      }
      case "fold": {
        const vec = this.eval(t.vec, env, prov);
        const fun = this.eval(t.fun, env, prov);
        const n = vec.length;
        let acc = vec;
        const step = BUGS.has("odd-fold") ? 2 : 1;  // planted: steps by two and misses -1 when n is odd
        for (let i = n - 1; BUGS.has("odd-fold") ? i !== -1 : i >= 0; i -= step) {
          const e = Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
          acc = this.apply(this.apply(fun, e, new Set()), acc, new Set());
        }
        return acc;
      }
    }
    throw new Error(`unknown term ${t.k}`);
  }
  apply(fun, arg, fp, argTerm) {
    if (fun.decoupled) {
      if (BUGS.has("modified-model") && fun.model.closure && argTerm && argTerm.k === "op") {
        return substValue(fun.model, new Map(arg.refs.map((k, i) => [k, arg[i]])), fp);  // planted: arg.refs
      }
      return substValue(fun.model, new Map(fun.refs.map((k, i) => [k, arg[i]])), fp);
    }
    if (fun.decoupling) {
      const refs = [...fp].sort((a, b) => a - b);
      const f = { decoupled: true, model: arg, refs };
      const x = refs.map((k) => this.params[k]);
      const env = new Map(fun.env);
      env.set(fun.node.f, [f, new Set()]); env.set(fun.node.p, [x, new Set()]);
      return this.eval(fun.node.body, env, fun.prov);
    }
    if (fun.closure) {
      const env = new Map(fun.env); env.set(fun.x, [arg, fp]);
      return this.eval(fun.body, env, fun.prov);
    }
    throw new TypeError("applying a non-function");
  }
  sigma(op, x, y) {
    if (op === "vadd") return x.map((a, i) => num("add", a, y[i]));
    if (op === "smul") return y.map((b) => num("mul", x, b));
    if (op === "dot") return x.reduce((acc, a, i) => num("add", acc, num("mul", a, y[i])), 0);
    return num(op, x, y);
  }
}

function collectParams(t, out) {
  if (t.k === "prov") out[t.index] = t.value;
  for (const key of ["body", "fun", "arg", "left", "right", "vec"]) if (t[key]) collectParams(t[key], out);
  return out;
}

function answer(text) {
  let term;
  try {
    term = annotate(new Parser(text).program());
  } catch (e) {
    if (e instanceof SyntaxError) return { rejected: e.message };
    throw e;
  }
  const params = collectParams(term, []);
  const v = new Interpreter(params).eval(term, new Map(), new Map());
  if (v.closure || v.decoupled) return { value: "λ" };
  if (Array.isArray(v)) return { value: v.map((x) => value(x, params)) };
  return { value: value(v, params) };
}

function show(payload) {
  return JSON.stringify(payload, (k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v));
}

if (process.argv.includes("--lines")) {
  const rl = require("readline").createInterface({ input: process.stdin });
  rl.on("line", (line) => {
    const request = JSON.parse(line);
    process.stdout.write(show({ id: request.id, ...answer(request.program) }) + "\n");
  });
} else {
  let input = "";
  process.stdin.on("data", (d) => (input += d));
  process.stdin.on("end", () => process.stdout.write(show(answer(input)) + "\n"));
}
