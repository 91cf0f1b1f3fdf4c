// known.mjs: documented differences between dra and the JS peers. Each rule
// says which side deviates from cel-spec / cel-go (checked against cel-go's
// source, and for number formatting against Go's fmt on this machine) and
// matches only that shape of disagreement; anything else fails the test.
// r = {dra, bufbuild, marcbachmann}, each {type, value} or {error}.

import { peers } from './peers.mjs';

const err = (x, re) => x?.error !== undefined && re.test(x.error);

// double("inf") / double('-inf') in an expression.
const infRe = /double\((["'])(-?)inf\1\)/;
const infReAll = new RegExp(infRe.source, 'g');

// The RE2 patterns gen.mjs uses that JavaScript's RegExp reads differently,
// rewritten to JavaScript patterns that match the same generated strings
// (their letters are ASCII, é, 日 and 本).
function re2AsJs(e) {
  return e
    .replace(/(["'])\(\?i\)h\1/g, '$1[hH]$1')
    .replace(/(["'])\[\[:alpha:\]\]\1/g, '$1[A-Za-z]$1')
    .replace(/(["'])\\\\pL\1/g, '$1[A-Za-zé日本]$1');
}
const isValue = (x) => x.error === undefined;

// Rules about the expression as a whole. draBug marks dra as the side that
// differs from cel-go: such rules pass but print as KNOWN DRA BUG until
// src/cel/ is fixed (then they stop matching and can go).
const wholeRules = [
  {
    // Kubernetes builds programs with cel.EvalOptions(cel.OptOptimize): cel-go
    // then folds a type conversion of a constant when the program is built
    // (interpreter.maybeOptimizeConstUnary) and refuses the program if it
    // fails, even in a branch never taken (docs/cel-engine.md, 'Pipeline', folding). The peers evaluate lazily. Only
    // when the expression holds a constant conversion of the kind dra names:
    // T("...") for a string-to-T conversion error, int(<constant>) for an
    // integer overflow, uint(<constant>) for an unsigned one.
    label: 'dra right (Kubernetes cel-go with OptOptimize): a failing constant conversion refuses the program',
    match: (e, f, r) => {
      const m = /^compile: program instantiation failed: (?:type conversion error from 'string' to '(int|uint|double)'|(unsigned )?integer overflow)$/.exec(r.dra.error ?? '');
      if (!m) return false;
      // the conversion's argument: a literal, possibly under further
      // constant conversions (folded first)
      const inner = String.raw`(?:(?:int|uint|double|string)\()*`;
      const str = String.raw`(?:"[^"]*"|'[^']*')`;
      const lit = String.raw`(?:-?[\d.]+(?:e[+-]?\d+)?u?|${str})`;
      const fn = m[1] ?? (m[2] ? 'uint' : 'int');
      return new RegExp(String.raw`\b${fn}\(${inner}${m[1] ? str : lit}`).test(e);
    },
  },
  {
    // cel-go moduloInt64Checked: MinInt64 % -1 is an overflow error.
    label: 'peers wrong: -9223372036854775808 % -1 is 0 instead of an overflow error',
    match: (e, f, r) =>
      e.includes('-9223372036854775808') && /-9223372036854775808 % |% -1\)/.test(e) && err(r.dra, /integer overflow/),
  },
  {
    // cel-go negateInt64Checked: -(-9223372036854775808) overflows, and the
    // error stays an error under a further negation; both peers lose it
    // (cel-js never checks, cel-es only checks the outermost result).
    label: 'peers wrong: -(-(-9223372036854775808)) hides the overflow of the inner negation',
    match: (e, f, r) => /-\(-\(-9223372036854775808\)\)/.test(e) && err(r.dra, /integer overflow/),
  },
];

// Rules about one peer's result alone (the other peer agreeing with dra or
// explained by its own rule).
const formatting = {
  // cel-go formats string(double) with fmt's %g: exponent form from 1e+06
  // up and below 1e-04, "-0" for negative zero, "+Inf"; both peers use
  // JavaScript's Number#toString. format_probe.mjs compares dra with Go's
  // own output instead.
  // Left as broad as this: re-reading the numbers in a string cannot work
  // once two formatted numbers are concatenated ("1e+10" + "0" reads as
  // "1e+100"), so the value itself is not compared.
  label: 'peers wrong (JavaScript number formatting): string(double), checked by the %g probe instead',
  match: (e, x, r, f) => f.has('string(double)') && isValue(x) && isValue(r.dra),
};

// A peer's result on a rewritten expression agrees with dra's: equal, or,
// where string(double) is involved, a value as dra's is (see formatting).
const agrees = (peer, r, f, same) => same(peer, r.dra) || (f.has('string(double)') && isValue(peer) && isValue(r.dra));

const peerRules = {
  bufbuild: [
    formatting,
    {
      // cel-go double(string) is strconv.ParseFloat, which reads "inf",
      // "-inf", "infinity" and "nan" (any case). Explains the disagreement
      // only if spelling the same values "Infinity" makes @bufbuild/cel agree.
      label: '@bufbuild/cel wrong: double("inf") is NaN',
      match: (e, x, r, f, same) =>
        infRe.test(e) && agrees(peers.bufbuild(e.replace(infReAll, (m, q, sign) => `double(${q}${sign}Infinity${q})`)), r, f, same),
    },
    {
      // cel-go: uint / uint is defined on the whole uint64 range.
      label: '@bufbuild/cel wrong: uint division checked against the int64 range',
      match: (e, x) => err(x, /int overflow during divide/),
    },
  ],
  marcbachmann: [
    formatting,
    {
      // cel-spec: has(m.f) on a map tests for the key f.
      label: '@marcbachmann/cel-js wrong: has() on a map literal is refused',
      match: (e, x) => err(x, /has\(\) invalid argument/),
    },
    {
      // cel-spec standard definitions: int(uint) -> int.
      label: "@marcbachmann/cel-js wrong: no int(uint) overload",
      match: (e, x) => err(x, /no matching overload for 'int\(uint\)'/),
    },
    {
      // cel-spec: matches() takes RE2 syntax; cel-js hands the pattern to
      // JavaScript's RegExp, which has no (?i) flag group, no POSIX classes
      // and no \pL without the u flag (@bufbuild/cel uses an RE2 port).
      // Explains the disagreement only if cel-js, given the same patterns
      // written the JavaScript way, agrees with dra.
      label: '@marcbachmann/cel-js wrong: matches() uses JavaScript RegExp, not RE2 ((?i), [[:alpha:]], \\pL)',
      match: (e, x, r, f, same) => {
        const js = re2AsJs(e);
        return js !== e && agrees(peers.marcbachmann(js), r, f, same);
      },
    },
    {
      // cel-go evaluates operands left to right and returns the first error
      // it meets (interpreter/interpretable.go: evalList, strict calls and
      // the logical operators keep the left error); cel-js reports another
      // operand's error (a later list element, the right operand), or loses
      // an overflow and fails a later index instead. Only an error-class
      // difference where @bufbuild/cel reports dra's class.
      label: "@marcbachmann/cel-js wrong: reports a later operand's error instead of the first (left to right)",
      match: (e, x, r, f, same) => x.error !== undefined && r.dra.error !== undefined && same(r.dra, r.bufbuild),
    },
    {
      // cel-spec standard definitions: <, <=, >, >= on bytes.
      label: '@marcbachmann/cel-js wrong: bytes are not ordered',
      match: (e, x) => err(x, /no such overload: bytes [<>]=?/),
    },
    {
      // cel-go: int64 negation and int(double) outside int64 are overflow
      // errors (common/types/overflow.go).
      label: '@marcbachmann/cel-js wrong: misses int64 overflow (negation of the minimum, int() of a huge double)',
      match: (e, x, r) => err(r.dra, /integer overflow/) && isValue(x) && r.bufbuild.error !== undefined,
    },
  ],
};

// The rule (or a combined {label}) explaining r, or null.
export function classify(expr, features, r, same) {
  const whole = wholeRules.find((rule) => rule.match(expr, features, r));
  if (whole) return whole;
  const labels = [];
  for (const peer of Object.keys(peerRules)) {
    if (same(r.dra, r[peer])) continue;
    const rule = peerRules[peer].find((p) => p.match(expr, r[peer], r, features, same));
    if (!rule) return null;
    labels.push(rule.label);
  }
  return labels.length ? { label: [...new Set(labels)].join(' + ') } : null;
}

// Format probes (format_probe.mjs) where dra differs from cel-go: none since
// string(double) follows Go's %g (src/cel/cel_lib_std.c).
export const draBugs = new Set();
