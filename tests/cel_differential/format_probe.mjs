// format_probe.mjs: string(double) against cel-go, which formats with Go's
// fmt "%g" (common/types/double.go). Both JS peers format the JavaScript way,
// so the random comparison cannot judge this; the expected texts below are
// what Go 1.x's fmt.Sprintf("%g", d) printed for each value.
export const formatProbe = [
  ['string(0.0)', '0'],
  ['string(-0.0)', '-0'],
  ['string(1.5)', '1.5'],
  ['string(0.1)', '0.1'],
  ['string(1.0 / 3.0)', '0.3333333333333333'],
  ['string(100.0)', '100'],
  ['string(123456.0)', '123456'],
  ['string(1e6)', '1e+06'],
  ['string(1234567.0)', '1.234567e+06'],
  ['string(1e10)', '1e+10'],
  ['string(1e20)', '1e+20'],
  ['string(1e21)', '1e+21'],
  ['string(double(9223372036854775807))', '9.223372036854776e+18'],
  ['string(1e300)', '1e+300'],
  ['string(0.0001)', '0.0001'],
  ['string(0.00001)', '1e-05'],
  ['string(-4.5e-3)', '-0.0045'],
  ['string(5e-324)', '5e-324'],
  ['string(1.7976931348623157e308)', '1.7976931348623157e+308'],
  ['string(double("inf"))', '+Inf'],
  ['string(double("-inf"))', '-Inf'],
  ['string(double("NaN"))', 'NaN'],
].map(([expr, want]) => ({ expr, want }));
