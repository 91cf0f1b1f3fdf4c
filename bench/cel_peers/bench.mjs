// bench.mjs: times the JS CEL peers on the selectors of bench/bench_cel.c
// that both support natively, over devices of the shape bench_cel.c makes
// (device i: driver gpu.example.com except every tenth, other.example.com;
// model a100/h100/l4/t4 by i % 4; features three of nvlink/mig/sriov/ecc
// from i % 4; index i, numa i % 2, healthy, firmware "1.<i%5>.<i%7>";
// capacity memory 40Gi/80Gi). Each expression is compiled once; the figure
// is the best of five passes over all devices, in ns per evaluation.
// Prints "<peer>\t<selector>\t<matches>\t<ns/eval>" lines.
// usage: node bench.mjs [devices]
import { celEnv, parse as bufParse, plan as bufPlan, isCelError } from '@bufbuild/cel';
import { parse as marcParse } from '@marcbachmann/cel-js';

const selectors = [
  ['driver', 'device.driver == "gpu.example.com"'],
  ['driver+attribute', 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"'],
  ['list membership', '"nvlink" in device.attributes["gpu.example.com"].features'],
];

const MODELS = ['a100', 'h100', 'l4', 't4'];
const FEATURES = ['nvlink', 'mig', 'sriov', 'ecc'];

function makeDevices(n) {
  const devices = [];
  for (let i = 0; i < n; i++) {
    const attrs = {
      index: BigInt(i),
      numa: BigInt(i % 2),
      healthy: true,
      model: MODELS[i % 4],
      features: [0, 1, 2].map((k) => FEATURES[(i + k) % 4]),
      firmware: `1.${i % 5}.${i % 7}`,
    };
    devices.push({
      driver: i % 10 ? 'gpu.example.com' : 'other.example.com',
      attributes: { 'gpu.example.com': attrs },
      capacity: { 'gpu.example.com': { memory: i % 2 ? '80Gi' : '40Gi' }, 'other.example.com': { cores: '128' } },
    });
  }
  return devices;
}

// Each peer: expression -> (device -> bool); errors count as no match.
const peers = {
  '@bufbuild/cel': (expr) => {
    const run = bufPlan(celEnv(), bufParse(expr));
    return (device) => {
      const r = run({ device });
      return !isCelError(r) && r === true;
    };
  },
  '@marcbachmann/cel-js': (expr) => {
    const run = marcParse(expr);
    return (device) => run({ device }) === true;
  },
};

function time(select, devices) {
  let best = Infinity, matches = 0;
  for (let i = 0; i < Math.min(devices.length, 1000); i++) select(devices[i]);
  for (let rep = 0; rep < 5; rep++) {
    const t0 = process.hrtime.bigint();
    matches = 0;
    for (const d of devices) if (select(d)) matches++;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / devices.length);
  }
  return { matches, ns: best };
}

const devices = makeDevices(Number(process.argv[2] ?? 100000));
for (const [peer, compile] of Object.entries(peers))
  for (const [name, expr] of selectors) {
    const { matches, ns } = time(compile(expr), devices);
    console.log(`${peer}\t${name}\t${matches}\t${ns.toFixed(1)}`);
  }
