// run.mjs: the differential test proper. Generates COUNT expressions from
// SEED, evaluates them with dra (through build/bench_cel_diff) and with both
// JS peers, and compares: equal values of equal type, or errors of the same
// class (errorClasses below).
// Every disagreement is printed with the three results; those that match a
// documented difference (known.mjs) pass, the others fail.
// usage: node run.mjs path/to/bench_cel_diff [count] [seed]
import { spawnSync } from 'node:child_process';
import { generator } from './gen.mjs';
import { peers } from './peers.mjs';
import { classify, draBugs } from './known.mjs';
import { formatProbe } from './format_probe.mjs';

const [helper, countArg = '3000', seedArg = '20261130'] = process.argv.slice(2);
const next = generator(Number(seedArg));
const generated = new Map();
for (let i = 0; i < Number(countArg); i++) {
  const g = next();
  if (!generated.has(g.expr)) generated.set(g.expr, g.features);
}
const exprs = [...generated.keys()];

const out = spawnSync(helper, ['-'], {
  input: [...exprs, ...formatProbe.map((p) => p.expr)].map((e) => JSON.stringify(e)).join('\n') + '\n',
  maxBuffer: 1 << 28,
  encoding: 'utf8',
});
if (out.status !== 0) {
  console.log(`cel_differential: ${helper} failed: ${out.stderr}`);
  process.exit(1);
}
const draLines = out.stdout.trim().split('\n').map((l) => JSON.parse(l));

const typeHead = (t) => t.replace(/\(.*$/, '');

// dra's line in the peers' shape.
function fromDra(d) {
  if (d.error !== undefined) return { error: `${d.stage}: ${d.error}` };
  const list = /^list\((int|bool|string)\)$/.exec(d.type);
  if (list && d.value !== undefined) return { type: 'list', value: d.value.map((v) => ({ type: list[1], value: v })) };
  if (d.value !== undefined) return { type: d.type, value: d.value };
  if (d.text === undefined) return { type: typeHead(d.type), opaque: true };
  switch (d.type) {
    case 'uint': return { type: 'uint', value: d.text };
    case 'double': return { type: 'double', value: parseDouble(d.text) };
    default: return { type: 'bytes', value: Buffer.from(d.text, 'utf8').toString('hex') };
  }
}

function parseDouble(s) {
  if (/^[+]?inf(inity)?$/i.test(s)) return Infinity;
  if (/^-inf(inity)?$/i.test(s)) return -Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return Number(s);
}

// Error classes. Two errors agree only when they are of the same class; the
// texts differ between implementations, so each class lists every
// implementation's wording (dra's is cel-go's). Order matters: cel-js says
// "No such key: index out of bounds" for a list index.
const errorClasses = [
  // dra/cel-go: "no such overload", checker "found no matching overload for",
  // "undeclared reference"; cel-js: "found no matching overload for",
  // "no such overload: bytes < bytes"
  ['no such overload', /no such overload|no matching overload|undeclared reference/i],
  // dra/cel-go and cel-js: "division by zero"; cel-es: "int divide by zero"
  ['division by zero', /division by zero|divide by zero/i],
  // dra/cel-go and cel-es: "modulus by zero"; cel-js: "modulo by zero"
  ['modulus by zero', /modulus by zero|modulo by zero/i],
  // dra/cel-go: "index out of bounds: 3", "unsupported index type 'string'
  // in list", strings: "index out of range: 30"; cel-es: "index 3 out of
  // bounds [0, 1)"; cel-js: "No such key: index out of bounds, ..."
  ['invalid argument', /index out of bounds|index -?\d+ out of bounds|unsupported index|index out of range/i],
  // dra/cel-go and cel-js: "no such key: z"; cel-es: "field not found: z"
  ['no such key', /no such key|field not found/i],
  // dra/cel-go: "integer overflow", "unsigned integer overflow", "type
  // conversion error from 'string' to 'int'", "invalid UTF-8 in bytes";
  // cel-es: "int overflow during _*_", "uint overflow during type
  // conversion", "Cannot convert x to a BigInt"; cel-js: "integer overflow:
  // 9", "Unsigned integer overflow", "int() type error: cannot convert to
  // int". Range and conversion failures are one class: cel-go itself calls
  // uint("18446744073709551616") a conversion error and uint(-1) an overflow.
  ['type conversion/range', /overflow|type conversion error|cannot convert|invalid UTF-8/i],
];

export function errorClass(msg) {
  const hit = errorClasses.find(([, re]) => re.test(msg));
  return hit ? hit[0] : `unclassified (${msg})`;
}

function same(a, b) {
  if (a.error !== undefined || b.error !== undefined) {
    if (a.error === undefined || b.error === undefined) return false;
    const ca = errorClass(a.error);
    return ca === errorClass(b.error) && !ca.startsWith('unclassified');
  }
  if (a.type !== b.type) return false;
  if (a.opaque || b.opaque || a.value === undefined) return true;
  if (a.type === 'double') return Object.is(a.value, b.value) || a.value === b.value;
  if (a.type === 'list') return a.value.length === b.value.length && a.value.every((x, i) => same(x, b.value[i]));
  return a.value === b.value;
}

function show(r) {
  if (r.error !== undefined) return `error [${errorClass(r.error)}]: ${r.error}`;
  const v = (x) => (x.type === 'list' ? `[${x.value.map(v).join(', ')}]` : x.value === undefined ? '' : JSON.stringify(String(x.value)));
  return `${r.type} ${r.opaque ? '(value not observable through cel.h)' : v(r)}`;
}

let passed = 0, failed = 0;
const known = new Map();
exprs.forEach((expr, i) => {
  const r = { dra: fromDra(draLines[i]), bufbuild: peers.bufbuild(expr), marcbachmann: peers.marcbachmann(expr) };
  if (same(r.dra, r.bufbuild) && same(r.dra, r.marcbachmann)) {
    passed++;
    return;
  }
  const rule = classify(expr, generated.get(expr), r, same);
  const label = rule?.label;
  const verdict = !rule ? 'FAIL' : rule.draBug ? `KNOWN DRA BUG (${label})` : `KNOWN (${label})`;
  if (label) {
    passed++;
    const key = rule.draBug ? `DRA BUG: ${label}` : label;
    known.set(key, (known.get(key) ?? 0) + 1);
  } else failed++;
  console.log(`${verdict}: ${expr}\n  dra:                  ${show(r.dra)}\n  @bufbuild/cel:        ${show(r.bufbuild)}\n  @marcbachmann/cel-js: ${show(r.marcbachmann)}`);
});
// string(double) against Go's %g (cel-go); dra's known deviations pass
// loudly until fixed.
formatProbe.forEach(({ expr, want }, i) => {
  const got = fromDra(draLines[exprs.length + i]);
  if (got.type === 'string' && got.value === want) {
    passed++;
    if (draBugs.has(expr)) console.log(`FIXED (remove from draBugs in known.mjs): ${expr} == ${JSON.stringify(want)}`);
    return;
  }
  const verdict = draBugs.has(expr) ? 'KNOWN DRA BUG (differs from cel-go)' : 'FAIL';
  if (draBugs.has(expr)) passed++;
  else failed++;
  console.log(`${verdict}: ${expr}\n  dra:    ${show(got)}\n  cel-go: string ${JSON.stringify(want)}`);
});
for (const [label, n] of [...known].sort()) console.log(`known difference, ${n} expression(s): ${label}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
