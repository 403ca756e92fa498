#!/usr/bin/env node
// The adapter between `goi oracle` and mini-ml (docs/ORACLE.md, Worked adapters): the
// persistent protocol, one JSON request per line in and one JSON answer per line out,
// mini-ml loaded once as a module.
//   goi oracle --impl 'node adapter.js' --protocol lines \
//       --notation docs/examples/notations/ml.toml --arithmetic ieee754
'use strict';
const readline = require('readline');
const { parse, evaluate, ParseError } = require('./mini-ml.js');

function answer(program) {
  let ast;
  try {
    ast = parse(program);
  } catch (err) {
    if (err instanceof ParseError) return { rejected: err.message };   // not in its language
    return { error: `${err.name}: ${err.message}` };                    // the parser itself failed
  }
  try {
    const v = evaluate(ast);
    // a double in full (String gives the shortest decimal that reads back as the same double;
    // NaN and Infinity as their names): goi compares it as a double under --arithmetic ieee754
    return { value: typeof v === 'number' ? String(v) : 'λ' };
  } catch (err) {
    return { error: `${err.name}: ${err.message}` };                    // the kind first, then what
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: request.id, ...answer(request.program) }) + '\n');
});
