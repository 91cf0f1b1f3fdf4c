// peers.mjs: evaluates one expression with each JS peer and turns the result
// into the shape the comparison uses: {type, value} with value canonical
// (ints, uints as decimal text, doubles as numbers, bytes as hex, lists as
// arrays), or {error}. @bufbuild/cel returns errors as values,
// @marcbachmann/cel-js (which type-checks first, as cel-go does) throws.
import { run as bufRun, isCelError, isCelUint, isCelList, isCelMap, isCelType } from '@bufbuild/cel';
import { evaluate as marcEvaluate } from '@marcbachmann/cel-js';

const hex = (u8) => Buffer.from(u8).toString('hex');

function fromBuf(v) {
  if (isCelError(v)) return { error: v.message };
  if (typeof v === 'bigint') return { type: 'int', value: v.toString() };
  if (isCelUint(v)) return { type: 'uint', value: v.value.toString() };
  if (typeof v === 'number') return { type: 'double', value: v };
  if (typeof v === 'string') return { type: 'string', value: v };
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  if (v instanceof Uint8Array) return { type: 'bytes', value: hex(v) };
  if (v === null) return { type: 'null_type' };
  if (isCelList(v)) return { type: 'list', value: [...v].map(fromBuf) };
  if (isCelMap(v)) return { type: 'map' };
  if (isCelType(v)) return { type: 'type' };
  return { type: 'unknown' };
}

function fromMarc(v) {
  if (typeof v === 'bigint') return { type: 'int', value: v.toString() };
  if (v?.constructor?.name === 'UnsignedInt') return { type: 'uint', value: v.valueOf().toString() };
  if (typeof v === 'number') return { type: 'double', value: v };
  if (typeof v === 'string') return { type: 'string', value: v };
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  if (v instanceof Uint8Array) return { type: 'bytes', value: hex(v) };
  if (v === null) return { type: 'null_type' };
  if (Array.isArray(v)) return { type: 'list', value: v.map(fromMarc) };
  if (v?.constructor?.name === 'Type') return { type: 'type' };
  if (v instanceof Map || typeof v === 'object') return { type: 'map' };
  return { type: 'unknown' };
}

const firstLine = (s) => String(s).split('\n')[0];

export const peers = {
  bufbuild: (expr) => {
    try {
      return fromBuf(bufRun(expr, {}));
    } catch (e) {
      return { error: firstLine(e.message) };
    }
  },
  marcbachmann: (expr) => {
    try {
      return fromMarc(marcEvaluate(expr));
    } catch (e) {
      return { error: firstLine(e.message) };
    }
  },
};
