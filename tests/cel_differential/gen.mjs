// gen.mjs: the seeded generator of CEL expressions for the differential
// test. Expressions are well typed by construction (each generator returns
// an expression of the type asked for) over the core language that dra and
// both JS peers implement; errors (overflow, division by zero, bad index,
// missing key, bad conversion) are generated on purpose, as are the
// operators that absorb them (&&, ||, ?:, macros).

// mulberry32: a small deterministic PRNG, so a seed names one expression set.
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)], chance: (p) => next() < p };
}

const INT_LITS = ['0', '1', '2', '3', '7', '-1', '-5', '10', '42', '100',
  '4611686018427387904', '9223372036854775807', '-9223372036854775807', '-9223372036854775808'];
const UINT_LITS = ['0u', '1u', '2u', '5u', '10u', '42u', '9223372036854775808u', '18446744073709551615u', '0x10u'];
const DOUBLE_LITS = ['0.0', '1.0', '1.5', '-2.5', '0.1', '3.25', '1e10', '-0.5', '2.0', '1e300', '100.0'];
const STRINGS = ['', 'a', 'ab', 'abc', 'hello', 'Hello World', 'x-y_z', '123', '-7', '3.5', 'true', 'héllo', 'ab\\ncd', '日本'];
const BYTES_LITS = ['b""', 'b"a"', 'b"abc"', "b'xyz'", 'b"\\x41\\x42"', 'b"\\303\\251"'];
const PATTERNS = ['a', '^a', 'c$', 'b+', '^[a-z]+$', '[0-9]', 'l{2}', 'a|z', '.*', '^h.llo$', 'x?y', '(?i)h', '\\\\d', '\\\\w+$', '\\\\bab', '[[:alpha:]]', '\\\\pL'];
const VARS = ['x', 'y', 'z', 'w'];

// generator(seed)() returns {expr, features}: features names the
// constructs whose results known.mjs needs to recognise (e.g.
// "string(double)").
export function generator(seed) {
  const r = rng(seed);
  let features;

  // env: [{name, type}] of macro variables in scope.
  function varOf(env, type) {
    const vs = env.filter((v) => v.type === type);
    return vs.length && r.chance(0.5) ? r.pick(vs).name : null;
  }

  function fresh(env) {
    return VARS.find((n) => !env.some((v) => v.name === n)) ?? `v${env.length}`;
  }

  function str(s) {
    return r.chance(0.8) ? `"${s}"` : `'${s}'`;
  }

  // An expression of type t; d bounds the depth.
  function gen(t, d, env = []) {
    const leaf = d <= 0 || r.chance(0.25);
    if (t === 'bool' && !leaf && r.chance(0.1)) return `(${gen('bool', d - 1, env)} ? ${gen('bool', d - 1, env)} : ${gen('bool', d - 1, env)})`;
    if (t !== 'bool' && !leaf && r.chance(0.08)) return `(${gen('bool', d - 1, env)} ? ${gen(t, d - 1, env)} : ${gen(t, d - 1, env)})`;
    switch (t) {
      case 'int': return leaf ? varOf(env, t) ?? r.pick(INT_LITS) : intExpr(d - 1, env);
      case 'uint': return leaf ? varOf(env, t) ?? r.pick(UINT_LITS) : uintExpr(d - 1, env);
      case 'double': return leaf ? varOf(env, t) ?? r.pick(DOUBLE_LITS) : doubleExpr(d - 1, env);
      case 'string': return leaf ? varOf(env, t) ?? str(r.pick(STRINGS)) : stringExpr(d - 1, env);
      case 'bytes': return leaf ? r.pick(BYTES_LITS) : bytesExpr(d - 1, env);
      case 'bool': return leaf ? varOf(env, t) ?? r.pick(['true', 'false']) : boolExpr(d - 1, env);
      case 'list(int)': return leaf ? listLit('int', d, env) : listExpr('int', d - 1, env);
      case 'list(string)': return leaf ? listLit('string', d, env) : listExpr('string', d - 1, env);
      case 'map(string, int)': return mapLit(d, env);
      default: throw new Error(`no generator for ${t}`);
    }
  }

  // A list literal; an empty one is written [e].filter(v, false), since a
  // bare [] leaves its element type to inference, which the peers do not do
  // as cel-go does.
  function listLit(elem, d, env) {
    const n = r.int(4);
    if (n === 0) return `[${gen(elem, 0, env)}].filter(${fresh(env)}, false)`;
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(gen(elem, Math.min(d - 1, 1), env));
    return `[${xs.join(', ')}]`;
  }

  function mapLit(d, env) {
    // Never {}: like a bare [], its types are left to inference.
    const picked = ['a', 'b', 'c'].filter(() => r.chance(0.6));
    const keys = [...picked, ...(picked.length ? [] : ['k'])];
    return `{${keys.map((k) => `"${k}": ${gen('int', Math.min(d - 1, 1), env)}`).join(', ')}}`;
  }

  function arith(t, d, env, ops) {
    const op = r.pick(ops);
    if (op === 'neg') return `-(${gen(t, d, env)})`;
    return `(${gen(t, d, env)} ${op} ${gen(t, d, env)})`;
  }

  function intExpr(d, env) {
    switch (r.int(9)) {
      case 0: case 1: case 2: return arith('int', d, env, ['+', '-', '*', '/', '%', 'neg']);
      case 3: return `size(${gen(r.pick(['string', 'bytes', 'list(int)', 'list(string)', 'map(string, int)']), d, env)})`;
      case 4: return `int(${gen(r.pick(['uint', 'double']), d, env)})`;
      case 5: return `int(${str(r.pick(['12', '-3', '9223372036854775807', '9223372036854775808', '1.5', 'x', '']))})`;
      case 6: return `${gen('list(int)', d, env)}[${gen('int', Math.min(d, 1), env)}]`;
      case 7: return `${mapLit(d, env)}[${str(r.pick(['a', 'b', 'z']))}]`;
      default: return `${gen(r.pick(['string', 'list(int)']), d, env)}.size()`;
    }
  }

  function uintExpr(d, env) {
    switch (r.int(4)) {
      case 0: case 1: return arith('uint', d, env, ['+', '-', '*', '/', '%']);
      case 2: return `uint(${gen(r.pick(['int', 'double']), d, env)})`;
      default: return `uint(${str(r.pick(['7', '18446744073709551615', '18446744073709551616', '-1', 'x']))})`;
    }
  }

  function doubleExpr(d, env) {
    switch (r.int(4)) {
      case 0: case 1: return arith('double', d, env, ['+', '-', '*', '/', 'neg']);
      case 2: return `double(${gen(r.pick(['int', 'uint']), d, env)})`;
      default: return `double(${str(r.pick(['1.5', '-0.25', '1e3', 'inf', 'x', '']))})`;
    }
  }

  function stringExpr(d, env) {
    switch (r.int(5)) {
      case 0: case 1: return `(${gen('string', d, env)} + ${gen('string', d, env)})`;
      case 2: return `string(${gen(r.pick(['int', 'uint', 'bool', 'bytes', 'string']), d, env)})`;
      case 3: return `${gen('list(string)', d, env)}[${gen('int', Math.min(d, 1), env)}]`;
      default:
        features.add('string(double)');
        return `string(${gen('double', d, env)})`;
    }
  }

  function bytesExpr(d, env) {
    return r.chance(0.5) ? `(${gen('bytes', d, env)} + ${gen('bytes', d, env)})` : `bytes(${gen('string', d, env)})`;
  }

  const ORDERED = ['int', 'uint', 'double', 'string', 'bytes', 'bool'];
  const EQUATABLE = [...ORDERED, 'list(int)', 'list(string)', 'map(string, int)'];

  function macro(d, env, kind) {
    const elem = r.pick(['int', 'string']);
    const v = fresh(env);
    const inner = [...env, { name: v, type: elem }];
    const range = gen(`list(${elem})`, d, env);
    return `${range}.${kind}(${v}, ${gen('bool', d, inner)})`;
  }

  function boolExpr(d, env) {
    switch (r.int(14)) {
      case 0: case 1: { // comparison of one type
        const t = r.pick(ORDERED);
        return `(${gen(t, d, env)} ${r.pick(['==', '!=', '<', '<=', '>', '>='])} ${gen(t, d, env)})`;
      }
      case 2: { const t = r.pick(EQUATABLE); return `(${gen(t, d, env)} ${r.pick(['==', '!='])} ${gen(t, d, env)})`; }
      case 3: case 4: return `(${gen('bool', d, env)} ${r.pick(['&&', '||'])} ${gen('bool', d, env)})`;
      case 5: return `!${gen('bool', d, env)}`;
      case 6: {
        const elem = r.pick(['int', 'string']);
        return `(${gen(elem, d, env)} in ${gen(`list(${elem})`, d, env)})`;
      }
      case 7: return `(${str(r.pick(['a', 'b', 'z']))} in ${mapLit(d, env)})`;
      case 8: {
        const fn = r.pick(['contains', 'startsWith', 'endsWith', 'matches']);
        // matches: mostly a literal pattern (checked when compiling), sometimes
        // one computed at run time.
        const literalPattern = fn === 'matches' && r.chance(0.8);
        const arg = literalPattern ? str(r.pick(PATTERNS)) : gen('string', Math.min(d, 1), env);
        return `${gen('string', d, env)}.${fn}(${arg})`;
      }
      case 9: case 10: return macro(d, env, r.pick(['all', 'exists', 'exists_one']));
      case 11: return `has(${mapLit(d, env)}.${r.pick(['a', 'b', 'z'])})`;
      case 12: {
        const t = r.pick([...ORDERED, 'list(int)', 'map(string, int)']);
        const name = r.pick(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map']);
        return `(type(${gen(t, d, env)}) ${r.pick(['==', '!='])} ${name})`;
      }
      default: return `(${gen('int', d, env)} ${r.pick(['<', '>', '=='])} ${gen('int', d, env)})`;
    }
  }

  function listExpr(elem, d, env) {
    switch (r.int(4)) {
      case 0: return `(${gen(`list(${elem})`, d, env)} + ${gen(`list(${elem})`, d, env)})`;
      case 1: { // filter keeps the element type
        const v = fresh(env);
        return `${gen(`list(${elem})`, d, env)}.filter(${v}, ${gen('bool', d, [...env, { name: v, type: elem }])})`;
      }
      case 2: { // map from a list of either type
        const from = r.pick(['int', 'string']);
        const v = fresh(env);
        return `${gen(`list(${from})`, d, env)}.map(${v}, ${gen(elem, d, [...env, { name: v, type: from }])})`;
      }
      default: return listLit(elem, d + 1, env);
    }
  }

  const TOP = ['bool', 'bool', 'bool', 'int', 'int', 'uint', 'double', 'string', 'string', 'bytes', 'list(int)', 'list(string)'];
  return () => {
    features = new Set();
    const expr = gen(r.pick(TOP), 2 + r.int(3));
    return { expr, features };
  };
}
