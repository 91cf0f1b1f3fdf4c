/* test_quantity.c: resource.Quantity parsing, canonical text, kept input
 * text, arithmetic. Tables are taken from apimachinery's quantity_test.go
 * (TestQuantityParse, TestQuantityString, TestQuantityParseEmit,
 * TestParseQuantity, TestNewSet, TestMilliNewSet, TestAdd, TestSub, ...),
 * plus recorded answers of apimachinery itself (tests/data/quantity). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value/quantity.h"

enum { DSI = QUANTITY_DECIMAL_SI, BIN = QUANTITY_BINARY_SI, DEX = QUANTITY_DECIMAL_EXPONENT };

/* mantissa * 10^exponent (exponent >= -9) in nanos, like upstream's decQuantity. */
static __int128 dec(int64_t mantissa, int exponent) {
  __int128 v = mantissa;
  for (int i = -9; i < exponent; i++)
    v *= 10;
  return v;
}

static quantity parse_ok(const char *s) {
  quantity q;
  const char *err = NULL;
  if (!quantity_parse(s, strlen(s), &q, &err))
    fail_msg("%s: unexpected error: %s", s, err);
  return q;
}

static const char *canonical(const quantity *q) {
  static char buf[64];
  return quantity_format_str(q, buf, sizeof buf);
}

/* What Go's ParseQuantity(s).String() returns: the kept text or the canonical form. */
static const char *go_string(const char *s) {
  quantity q;
  bool keeps = false;
  const char *err = NULL;
  if (!quantity_parse_keeping_text(s, strlen(s), &q, &err, &keeps))
    fail_msg("%s: unexpected error: %s", s, err);
  return keeps ? s : canonical(&q);
}

static bool kept(const char *s) {
  quantity q;
  bool keeps = false;
  assert_true(quantity_parse_keeping_text(s, strlen(s), &q, NULL, &keeps));
  return keeps;
}

static void assert_value(const char *input, const quantity *q, __int128 nanos, int format) {
  if (q->nanos != nanos || (int)q->format != format)
    fail_msg("%s: got %s (format %d), want format %d", input, canonical(q), (int)q->format, format);
}

static const struct {
  const char *input;
  int64_t mantissa;
  int exponent;
  int format;
} parse_table[] = {
    {"0", 0, 0, DSI}, {"0n", 0, 0, DSI}, {"0u", 0, 0, DSI}, {"0m", 0, 0, DSI}, {"0Ki", 0, 0, BIN},
    {"0k", 0, 0, DSI}, {"0Mi", 0, 0, BIN}, {"0M", 0, 0, DSI}, {"0Gi", 0, 0, BIN}, {"0G", 0, 0, DSI},
    {"0Ti", 0, 0, BIN}, {"0T", 0, 0, DSI},
    {"1", 1, 0, DSI},
    {"1Ki", 1024, 0, BIN}, {"8Ki", 8 * 1024, 0, BIN}, {"7Mi", 7 * 1024 * 1024, 0, BIN},
    {"6Gi", 6LL << 30, 0, BIN}, {"5Ti", 5LL << 40, 0, BIN}, {"4Pi", 4LL << 50, 0, BIN},
    {"3Ei", 3LL << 60, 0, BIN}, {"10Ti", 10LL << 40, 0, BIN}, {"100Ti", 100LL << 40, 0, BIN},
    {"5n", 5, -9, DSI}, {"4u", 4, -6, DSI}, {"3m", 3, -3, DSI}, {"9", 9, 0, DSI}, {"8k", 8, 3, DSI},
    {"50k", 5, 4, DSI}, {"7M", 7, 6, DSI}, {"6G", 6, 9, DSI}, {"5T", 5, 12, DSI}, {"40T", 4, 13, DSI},
    {"300T", 3, 14, DSI}, {"2P", 2, 15, DSI}, {"1E", 1, 18, DSI},
    {"1E-3", 1, -3, DEX}, {"1e3", 1, 3, DEX}, {"1E6", 1, 6, DEX}, {"1e9", 1, 9, DEX}, {"1E12", 1, 12, DEX},
    {"1e15", 1, 15, DEX}, {"1E18", 1, 18, DEX},
    {"1e14", 1, 14, DEX}, {"1e13", 1, 13, DEX}, {"100.035k", 100035, 0, DSI},
    {"0.001", 1, -3, DSI}, {"0.0005k", 5, -1, DSI}, {"0.005", 5, -3, DSI}, {"0.05", 5, -2, DSI},
    {"0.5", 5, -1, DSI}, {"0.00050k", 5, -1, DSI}, {"0.00500", 5, -3, DSI}, {"0.05000", 5, -2, DSI},
    {"0.50000", 5, -1, DSI}, {"0.5e0", 5, -1, DEX}, {"0.5e-1", 5, -2, DEX}, {"0.5e-2", 5, -3, DEX},
    {"10.035M", 10035, 3, DSI},
    {"1.2e3", 12, 2, DEX}, {"1.3E+6", 13, 5, DEX}, {"1.40e9", 14, 8, DEX}, {"1.53E12", 153, 10, DEX},
    {"1.6e15", 16, 14, DEX}, {"1.7E18", 17, 17, DEX},
    {"9.01", 901, -2, DSI}, {"8.1k", 81, 2, DSI}, {"7.123456M", 7123456, 0, DSI},
    {"6.987654321G", 6987654321, 0, DSI}, {"5.444T", 5444, 9, DSI}, {"40.1T", 401, 11, DSI},
    {"300.2T", 3002, 11, DSI}, {"2.5P", 25, 14, DSI}, {"1.01E", 101, 16, DSI},
    /* saturate / round */
    {"3.001n", 4, -9, DSI}, {"1.1E-9", 2, -9, DEX}, {"0.0000000001", 1, -9, DSI},
    {"0.0000000005", 1, -9, DSI}, {"0.00000000050", 1, -9, DSI}, {"0.5e-9", 1, -9, DEX},
    {"0.9n", 1, -9, DSI}, {"0.00000012345", 124, -9, DSI}, {"0.00000012354", 124, -9, DSI},
    {"9Ei", INT64_MAX, 0, BIN}, {"9223372036854775807Ki", INT64_MAX, 0, BIN}, {"12E", 12, 18, DSI},
    /* fractional binary */
    {"100.035Ki", 10243584, -2, BIN}, {"0.5Mi", 512 * 1024, 0, BIN}, {"0.05Gi", 536870912, -1, BIN},
    {"0.025Ti", 274877906944, -1, BIN},
    /* written by trolls */
    {"0.000000000001Ki", 2, -9, DSI}, {".001", 1, -3, DSI}, {".0001k", 100, -3, DSI}, {"1.", 1, 0, DSI},
    {"1.G", 1, 9, DSI},
    /* more odd forms Kubernetes accepts: a missing number reads as 0 */
    {".", 0, 0, DSI}, {"m", 0, 0, DSI}, {"Ki", 0, 0, BIN}, {"e5", 0, 0, DEX}, {"E", 0, 0, DSI},
    {"0.Pi", 0, 0, BIN}, {"00", 0, 0, DSI}, {"0e-20", 0, 0, DEX},
    /* the exponent is a Go int32: 2^32+1 wraps to 1 */
    {"1e4294967297", 1, 1, DEX}, {"1e-100", 1, -9, DEX}, {"123456789e-100", 1, -9, DEX},
    /* long digit strings */
    {"0000000000000000000000000000000000000000001", 1, 0, DSI},
    {"1.000000000000000000000000000000000000000000", 1, 0, DSI},
    {"1.0000000000000000000000000000000000000000001", 1000000001, -9, DSI},
    {"100000000000000000000000000000000000000000000e-40", 10, 3, DEX},
    {"8Ei", INT64_MAX, 0, BIN}, {"100000000000000000000000000000000000000000Ki", INT64_MAX, 0, BIN}, {"1.5Ki", 1536, 0, BIN},
    {"0.1Ki", 1024, -1, BIN}, {"0.0001Ki", 1024, -4, DSI},
};

static void test_parse_table(void **state) {
  (void)state;
  char buf[128];
  for (size_t i = 0; i < sizeof parse_table / sizeof parse_table[0]; i++) {
    __int128 want = dec(parse_table[i].mantissa, parse_table[i].exponent);
    quantity q = parse_ok(parse_table[i].input);
    assert_value(parse_table[i].input, &q, want, parse_table[i].format);
    /* the negative and the explicitly positive version of everything */
    snprintf(buf, sizeof buf, "-%s", parse_table[i].input);
    q = parse_ok(buf);
    assert_value(buf, &q, -want, parse_table[i].format);
    snprintf(buf, sizeof buf, "+%s", parse_table[i].input);
    q = parse_ok(buf);
    assert_value(buf, &q, want, parse_table[i].format);
  }
}

static const struct {
  const char *input, *error;
} invalid_table[] = {
    {"", QUANTITY_REGEX_ERROR}, {"1.1.M", QUANTITY_REGEX_ERROR}, {"1+1.0M", QUANTITY_REGEX_ERROR},
    {"0.1mi", QUANTITY_SUFFIX_ERROR}, {"0.1am", QUANTITY_REGEX_ERROR}, {"aoeu", QUANTITY_REGEX_ERROR},
    {".5i", QUANTITY_SUFFIX_ERROR}, {"1i", QUANTITY_SUFFIX_ERROR}, {"-3.01i", QUANTITY_SUFFIX_ERROR},
    {"-3.01e-", QUANTITY_SUFFIX_ERROR}, {" 1", QUANTITY_REGEX_ERROR}, {"1 ", QUANTITY_REGEX_ERROR},
    {"Non-Numeric", QUANTITY_REGEX_ERROR}, {"1e", QUANTITY_SUFFIX_ERROR}, {"1ki", QUANTITY_SUFFIX_ERROR},
    {"1KI", QUANTITY_REGEX_ERROR}, {"1k3", QUANTITY_SUFFIX_ERROR}, {"1E3E", QUANTITY_REGEX_ERROR},
    {"1e99999999999999999999", QUANTITY_SUFFIX_ERROR}, {"1Ei5", QUANTITY_SUFFIX_ERROR},
    {"1.0.0", QUANTITY_REGEX_ERROR}, {"--1", QUANTITY_SUFFIX_ERROR}, {"1e+", QUANTITY_SUFFIX_ERROR},
    /* no digits where Kubernetes takes its inf.Dec path */
    {".e-10", QUANTITY_NUMERIC_ERROR}, {"e-10", QUANTITY_NUMERIC_ERROR}, {"Pi", QUANTITY_NUMERIC_ERROR},
    {"-.Ei", QUANTITY_NUMERIC_ERROR}, {"+Pi", QUANTITY_NUMERIC_ERROR},
    /* our limit: 10^29 and beyond */
    {"1e29", QUANTITY_TOO_LARGE_ERROR}, {"-100000000000000000000000000000", QUANTITY_TOO_LARGE_ERROR},
    {"100000000000E", QUANTITY_TOO_LARGE_ERROR}, {"1e2147483647", QUANTITY_TOO_LARGE_ERROR},
};

static void test_invalid(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof invalid_table / sizeof invalid_table[0]; i++) {
    quantity q = {.nanos = 42, .format = QUANTITY_BINARY_SI};
    const char *err = NULL;
    const char *s = invalid_table[i].input;
    if (quantity_parse(s, strlen(s), &q, &err))
      fail_msg("%s parsed unexpectedly as %s", s, canonical(&q));
    if (!err || strcmp(err, invalid_table[i].error) != 0)
      fail_msg("%s: error %s, want %s", s, err ? err : "(null)", invalid_table[i].error);
    assert_true(q.nanos == 42); /* untouched */
  }
  /* embedded NUL bytes are just invalid characters */
  quantity q;
  assert_false(quantity_parse("1\0k", 3, &q, NULL));
  assert_false(quantity_parse("1k\0", 3, &q, NULL));
}

static void test_limits(void **state) {
  (void)state;
  quantity q = parse_ok("99999999999999999999999999999.999999999"); /* 10^29 - 1n */
  assert_true(q.nanos == QUANTITY_MAX_NANOS);
  const char *err = NULL, *past = "99999999999999999999999999999.9999999991"; /* rounds up past it */
  assert_false(quantity_parse(past, strlen(past), &q, &err));
  assert_string_equal(err, QUANTITY_TOO_LARGE_ERROR);
}

/* Parsed text -> canonical text (Quantity.String() of a computed value). */
static const struct {
  const char *input, *canonical;
} canonical_table[] = {
    {"0.5", "500m"}, {"1000", "1k"}, {"1024Mi", "1Gi"}, {"1e3", "1e3"}, {"1E3", "1e3"}, {"0", "0"},
    {"-1", "-1"}, {"+1", "1"}, {"1.5Gi", "1536Mi"}, {"1.5", "1500m"}, {"12n", "12n"}, {"1u", "1u"},
    {"10Gi", "10Gi"}, {"100m", "100m"}, {".5", "500m"}, {"5.", "5"}, {"1.G", "1G"}, {"0.5Ki", "512"},
    {"1.5Ki", "1536"}, {"62.5Ki", "64000"}, {"0.1Ki", "102400m"}, {"1.1Ki", "1126400m"}, {"-0", "0"}, {"-0Ki", "0"},
    {"1000E", "1e21"}, {"1001E", "1001E"}, {"1e21", "1e21"}, {"1e-9", "1e-9"}, {"1000e-12", "1e-9"},
    {"8Ei", "9223372036854775807"}, {"-8Ei", "-9223372036854775807"}, {"1Ei", "1Ei"},
    {"1024Ei", "9223372036854775807"}, {"1048576Ki", "1Gi"}, {"1000m", "1"}, {"1000000n", "1m"},
    {"0.000001", "1u"}, {"1e0", "1"}, {"10e0", "10"}, {"1.5e1", "15"}, {"15e-1", "1500e-3"},
    {"1E+0", "1"}, {"2e2", "200"}, {"20e2", "2e3"}, {"1G", "1G"}, {"1000M", "1G"},
    /* TestQuantityParseEmit */
    {"1Ki", "1Ki"}, {"1Mi", "1Mi"}, {"1Gi", "1Gi"}, {".001Ki", "1024m"}, {".000001Ki", "1024u"},
    {".000000001Ki", "1024n"}, {".000000000001Ki", "2n"}, {"-.001Ki", "-1024m"}, {"-.000000000001Ki", "-2n"},
    /* TestParseQuantity (apimachinery), String() of values past int64 */
    {"-999999999999999999.0", "-999999999999999999"},
    {"999999999999999999.1", "999999999999999999100m"},
    {"-9999999999999999999", "-9999999999999999999"},
    {"1000000000000000000", "1E"}, {"-1000000000000000000", "-1E"}, {"1.0E", "1E"},
    {"9999999999999999999000m", "9999999999999999999"},
    {"-9999999999999999999.1", "-9999999999999999999100m"},
    {"1.0000000000000000001E", "1000000000000000000100m"},
    {"-1.000000000000000001E", "-1000000000000000001"},
    {"10E", "10E"}, {"10000000000000000000", "10E"}, {"-10000000000000000000000m", "-10E"},
    {"10.0000000000000000001E", "10000000000000000000100m"},
    {"10000000000000000001", "10000000000000000001"},
    {"-9223372036854775809.1", "-9223372036854775809100m"},
    {"9223372036854775806000m", "9223372036854775806"},
    {"-9223372036854775808", "-9223372036854775808"}, {"9223372036854775808.1", "9223372036854775808100m"},
    {"99999999999999999999999999999", "99999999999999999999999999999"},
    {"99999999999999999999999999999.999999999", "99999999999999999999999999999999999999n"},
};

static void test_canonical(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof canonical_table / sizeof canonical_table[0]; i++) {
    quantity q = parse_ok(canonical_table[i].input);
    assert_string_equal(canonical(&q), canonical_table[i].canonical);
    quantity again = parse_ok(canonical_table[i].canonical); /* the text keeps the value */
    assert_true(again.nanos == q.nanos);
  }
  /* ... but not always the format: BinarySI 64000 has no binary suffix */
  quantity q = parse_ok("64000");
  assert_string_equal(canonical(&q), "64k");
}

/* TestQuantityString: a value, the text it prints as, and an alternate
 * spelling that must print the same; every non-zero one also negated. */
static const struct {
  int64_t mantissa;
  int exponent;
  int format;
  const char *expect, *alternate;
} string_table[] = {
    {1024 * 1024 * 1024, 0, BIN, "1Gi", "1024Mi"}, {300 * 1024 * 1024, 0, BIN, "300Mi", "307200Ki"},
    {6 * 1024, 0, BIN, "6Ki", ""}, {1001LL * 1024 * 1024 * 1024, 0, BIN, "1001Gi", "1025024Mi"},
    {1024LL * 1024 * 1024 * 1024, 0, BIN, "1Ti", "1024Gi"}, {5, 0, BIN, "5", "5000m"},
    {500, -3, BIN, "500m", "0.5"}, {1, 9, DSI, "1G", "1000M"}, {1000, 6, DSI, "1G", "0.001T"},
    {1000000, 3, DSI, "1G", ""}, {1000000000, 0, DSI, "1G", ""}, {1, -3, DSI, "1m", "1000u"},
    {80, -3, DSI, "80m", ""}, {1080, -3, DSI, "1080m", "1.08"}, {108, -2, DSI, "1080m", "1080000000n"},
    {10800, -4, DSI, "1080m", ""}, {300, 6, DSI, "300M", ""}, {1, 12, DSI, "1T", ""},
    {1234567, 6, DSI, "1234567M", ""}, {1234567, -3, BIN, "1234567m", ""}, {3, 3, DSI, "3k", ""},
    {1025, 0, BIN, "1025", ""}, {0, 0, DSI, "0", ""}, {0, 0, BIN, "0", ""},
    {1, 9, DEX, "1e9", ".001e12"}, {1, -3, DEX, "1e-3", "0.001e0"}, {1, -9, DEX, "1e-9", "1000e-12"},
    {80, -3, DEX, "80e-3", ""}, {300, 6, DEX, "300e6", ""}, {1, 12, DEX, "1e12", ""}, {1, 3, DEX, "1e3", ""},
    {3, 3, DEX, "3e3", ""}, {3, 3, DSI, "3k", ""}, {0, 0, DEX, "0", "00"}, {1, -9, DSI, "1n", ""},
    {80, -9, DSI, "80n", ""}, {1080, -9, DSI, "1080n", ""}, {108, -8, DSI, "1080n", ""}, {1, -6, DSI, "1u", ""},
    {80, -6, DSI, "80u", ""}, {1080, -6, DSI, "1080u", ""},
};

static void test_string(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof string_table / sizeof string_table[0]; i++) {
    quantity q = {.nanos = dec(string_table[i].mantissa, string_table[i].exponent), .format = (quantity_format)string_table[i].format};
    assert_string_equal(canonical(&q), string_table[i].expect);
    /* Kubernetes keeps canonical input text, and not the alternates */
    assert_true(kept(string_table[i].expect));
    assert_string_equal(go_string(string_table[i].expect), string_table[i].expect);
    if (string_table[i].alternate[0]) {
      assert_false(kept(string_table[i].alternate));
      quantity alt = parse_ok(string_table[i].alternate);
      assert_string_equal(canonical(&alt), string_table[i].expect);
      assert_string_equal(go_string(string_table[i].alternate), string_table[i].expect);
    }
    if (q.nanos != 0) {
      char want[64];
      snprintf(want, sizeof want, "-%s", string_table[i].expect);
      q.nanos = -q.nanos;
      assert_string_equal(canonical(&q), want);
    }
  }
}

/* Inputs whose text Kubernetes' String() repeats verbatim, and some it does not. */
static const struct {
  const char *input;
  bool kept;
} kept_table[] = {
    {"0", true}, {"+1", true}, {"1E3", true}, {"1e3", true}, {"1.500k", true}, {"01Ki", true},
    {"1Ki", true}, {"+1Ki", true}, {"1.Ki", true}, {"00001", true}, {"100m", true}, {"-1", true},
    {"10e3", true}, {"1.500e3", true}, {"-999999999999999999", true},
    {"8Ki", false}, {"1024Mi", false}, {"1000m", false}, {"0.5", false}, {"1.5", false}, {"1.0", false},
    {"00", false}, {"-0", false}, {"0.5Ki", false}, {"1.5e3", false}, {"9999999999999999999", false},
    {"1Pi", false}, {"0.5e-9", false}, {"1000", false}, {".1k", false},
};

static void test_kept_text(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof kept_table / sizeof kept_table[0]; i++)
    if (kept(kept_table[i].input) != kept_table[i].kept)
      fail_msg("%s: kept %d, want %d", kept_table[i].input, !kept_table[i].kept, kept_table[i].kept);
  assert_string_equal(go_string("1.500k"), "1.500k");
  assert_string_equal(go_string("1.5k"), "1500");
  bool keeps = true;
  quantity q;
  assert_false(quantity_parse_keeping_text("x", 1, &q, NULL, &keeps));
  assert_false(keeps);
}

static void test_new_set(void **state) {
  (void)state;
  /* TestNewSet */
  static const struct {
    int64_t value;
    int format;
    const char *expect;
  } ints[] = {{1, DSI, "1"}, {1000, DSI, "1k"}, {1234000, DSI, "1234k"}, {1024, BIN, "1Ki"},
              {1000000, DEX, "1e6"}, {1024 * 1024, BIN, "1Mi"}, {-1024, BIN, "-1Ki"},
              {INT64_MAX, BIN, "9223372036854775807"}, {INT64_MIN, DSI, "-9223372036854775808"}};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    quantity q = quantity_from_int(ints[i].value, (quantity_format)ints[i].format);
    assert_string_equal(canonical(&q), ints[i].expect);
    quantity back = parse_ok(ints[i].expect);
    assert_int_equal(quantity_value(&back), ints[i].value);
  }
  /* TestMilliNewSet */
  static const struct {
    int64_t milli;
    int format;
    const char *expect;
  } millis[] = {{1, DSI, "1m"}, {1000, DSI, "1"}, {1234000, DSI, "1234"}, {1024, BIN, "1024m"},
                {1000000, DEX, "1e3"}, {1024 * 1024, BIN, "1048576m"}};
  for (size_t i = 0; i < sizeof millis / sizeof millis[0]; i++) {
    quantity q = {.nanos = dec(millis[i].milli, -3), .format = (quantity_format)millis[i].format};
    assert_string_equal(canonical(&q), millis[i].expect);
    quantity back = parse_ok(millis[i].expect);
    assert_int_equal(quantity_milli_value(&back), millis[i].milli);
  }
}

static void test_value(void **state) {
  (void)state;
  static const struct {
    const char *input;
    int64_t value, milli;
  } table[] = {
      {"1n", 1, 1}, {"1u", 1, 1}, {"1m", 1, 1}, {"1", 1, 1000}, {"0", 0, 0}, {"9.01", 10, 9010},
      {"-9.01", -10, -9010}, {"1.1", 2, 1100}, {"-1.1", -2, -1100}, {"-1n", -1, -1}, {"1Ki", 1024, 1024000},
      {"1.5", 2, 1500}, {"1001u", 1, 2}, {"1E", 1000000000000000000, INT64_MAX},
      {"-1E", -1000000000000000000, INT64_MIN}, {"1e20", INT64_MAX, INT64_MAX}, {"-1e20", INT64_MIN, INT64_MIN},
      {"8Ei", INT64_MAX, INT64_MAX}, {"9223372036854775807", INT64_MAX, INT64_MAX},
      {"9223372036854775806.5", INT64_MAX, INT64_MAX}, {"-9223372036854775808", INT64_MIN, INT64_MIN},
      {"9223372036854775.807", 9223372036854776, INT64_MAX},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    quantity q = parse_ok(table[i].input);
    if (quantity_value(&q) != table[i].value || quantity_milli_value(&q) != table[i].milli)
      fail_msg("%s: value %lld milli %lld", table[i].input, (long long)quantity_value(&q),
               (long long)quantity_milli_value(&q));
  }
}

static void test_cmp(void **state) {
  (void)state;
  static const struct {
    const char *x, *y;
    int want;
  } table[] = {
      {"0", "0", 0}, {"100m", "50m", 1}, {"50m", "100m", -1}, {"10000T", "100Gi", 1}, {"200M", "0.2G", 0},
      {"1Ki", "1024", 0}, {"1k", "1Ki", -1}, {"-1", "0", -1}, {"-1Ki", "-1k", -1}, {"1n", "0", 1},
      {"9223372036854775808", "9223372036854775807", 1}, {"1e3", "1k", 0}, {"0.1n", "1n", 0},
      {"9.01", "9010m", 0}, {"-0", "0", 0},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    quantity x = parse_ok(table[i].x), y = parse_ok(table[i].y);
    if (quantity_cmp(&x, &y) != table[i].want || quantity_cmp(&y, &x) != -table[i].want)
      fail_msg("cmp(%s, %s) = %d, want %d", table[i].x, table[i].y, quantity_cmp(&x, &y), table[i].want);
  }
  quantity z = parse_ok("0Ki"), n = parse_ok("-3m"), p = parse_ok("2Gi");
  assert_true(quantity_is_zero(&z));
  assert_false(quantity_is_zero(&n));
  assert_int_equal(quantity_sign(&z), 0);
  assert_int_equal(quantity_sign(&n), -1);
  assert_int_equal(quantity_sign(&p), 1);
}

static void test_add_sub(void **state) {
  (void)state;
  /* TestAdd / TestSub: the format is the left operand's unless it is zero */
  static const struct {
    int64_t a;
    int afmt;
    int64_t b;
    int bfmt;
    int64_t sum;
    int sumfmt;
    int64_t diff;
    int difffmt;
  } table[] = {
      {10, DSI, 10, DSI, 20, DSI, 0, DSI}, {10, DSI, 1, BIN, 11, DSI, 9, DSI}, {10, BIN, 1, DSI, 11, BIN, 9, BIN},
      {0, DSI, 50, DSI, 50, DSI, -50, DSI}, {50, DSI, 0, DSI, 50, DSI, 50, DSI}, {0, DSI, 0, DSI, 0, DSI, 0, DSI},
      {0, DSI, 1024, BIN, 1024, BIN, -1024, BIN},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    quantity a = quantity_from_int(table[i].a, (quantity_format)table[i].afmt);
    quantity b = quantity_from_int(table[i].b, (quantity_format)table[i].bfmt);
    quantity sum = quantity_add(a, b), diff = quantity_sub(a, b);
    assert_value("add", &sum, dec(table[i].sum, 0), table[i].sumfmt);
    assert_value("sub", &diff, dec(table[i].diff, 0), table[i].difffmt);
  }
  /* TestQuantityAddZeroPreservesSuffix / SubZero */
  const char *keep[] = {"100m", "1Gi"};
  quantity zero = parse_ok("0");
  for (size_t i = 0; i < 2; i++) {
    quantity v = parse_ok(keep[i]);
    quantity r = quantity_add(v, zero);
    assert_string_equal(canonical(&r), keep[i]);
    r = quantity_add(zero, v);
    assert_string_equal(canonical(&r), keep[i]);
    r = quantity_sub(v, zero);
    assert_string_equal(canonical(&r), keep[i]);
    r = quantity_sub(zero, v);
    char want[16];
    snprintf(want, sizeof want, "-%s", keep[i]);
    assert_string_equal(canonical(&r), want);
  }
  /* exact across scales: 1n + 1E - 1E */
  quantity tiny = parse_ok("1n"), huge = parse_ok("1E");
  quantity r = quantity_sub(quantity_add(tiny, huge), huge);
  assert_true(r.nanos == 1);
  assert_string_equal(canonical(&r), "1n");
  /* saturation at the limit */
  quantity max = {.nanos = QUANTITY_MAX_NANOS, .format = QUANTITY_DECIMAL_SI}, min = {.nanos = -QUANTITY_MAX_NANOS, .format = QUANTITY_DECIMAL_SI};
  r = quantity_add(max, max);
  assert_true(r.nanos == QUANTITY_MAX_NANOS);
  r = quantity_sub(min, max);
  assert_true(r.nanos == -QUANTITY_MAX_NANOS);
  r = quantity_add(max, tiny);
  assert_true(r.nanos == QUANTITY_MAX_NANOS);
  /* deviation: past Ei we keep the Ei suffix (Kubernetes drops it) */
  quantity ei = {.nanos = ((__int128)512 << 60) * 1000000000, .format = QUANTITY_BINARY_SI}; /* above the parse cap */
  r = quantity_add(ei, ei);
  assert_string_equal(canonical(&r), "1024Ei");
}

static void test_format_buffer(void **state) {
  (void)state;
  char small[4];
  quantity q = parse_ok("123456");
  assert_string_equal(quantity_format_str(&q, small, sizeof small), "123");
  char big[64], want[64] = "-";
  for (int i = 1; i <= 38; i++)
    want[i] = '9';
  strcpy(want + 39, "e-9");
  quantity min = {.nanos = -QUANTITY_MAX_NANOS, .format = QUANTITY_DECIMAL_EXPONENT};
  assert_string_equal(quantity_format_str(&min, big, sizeof big), want);
}

static __int128 parse_nanos(const char *s) {
  bool negative = *s == '-';
  __int128 v = 0;
  for (s += negative; *s; s++)
    v = v * 10 + (*s - '0');
  return negative ? -v : v;
}

/* Splits line at tabs into at most max fields; returns the count. */
static size_t split_tabs(char *line, char **fields, size_t max) {
  size_t n = 0;
  for (char *p = line; n < max; p++) {
    fields[n++] = p;
    p = strchr(p, '\t');
    if (!p)
      break;
    *p = '\0';
  }
  return n;
}

static void test_vectors(void **state) {
  (void)state;
  static const char *const formats[] = {"DecimalSI", "BinarySI", "DecimalExponent"};
  FILE *f = fopen(DRA_SOURCE_DIR "/tests/data/quantity/vectors.tsv", "r");
  assert_non_null(f);
  char line[512], text[64];
  size_t rows = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *c[8] = {0};
    size_t n = split_tabs(line, c, 8);
    assert_true(n >= 3); /* the input, ERR or its text, and the error kind or the canonical text */
    quantity q;
    const char *err = NULL;
    bool keeps = false;
    bool ok = quantity_parse_keeping_text(c[0], strlen(c[0]), &q, &err, &keeps);
    rows++;
    if (strcmp(c[1], "ERR") == 0) {
      const char *want = strcmp(c[2], "SUFFIX") == 0    ? QUANTITY_SUFFIX_ERROR
                         : strcmp(c[2], "NUMERIC") == 0 ? QUANTITY_NUMERIC_ERROR
                                                        : QUANTITY_REGEX_ERROR;
      if (ok || strcmp(err, want) != 0)
        fail_msg("%s: want error %s, got %s", c[0], c[2], ok ? "success" : err);
      continue;
    }
    assert_int_equal(n, 8);
    if (!ok)
      fail_msg("%s: unexpected error %s", c[0], err);
    quantity_format_str(&q, text, sizeof text);
    if (strcmp(keeps ? c[0] : text, c[2]) != 0 || strcmp(text, c[3]) != 0 || strcmp(formats[q.format], c[4]) != 0)
      fail_msg("%s: got %s %s %s, want %s %s %s", c[0], keeps ? c[0] : text, text, formats[q.format], c[2], c[3], c[4]);
    if (q.nanos != parse_nanos(c[5]))
      fail_msg("%s: nanos differ from %s", c[0], c[5]);
    if (strcmp(c[6], "-") != 0 &&
        (quantity_value(&q) != strtoll(c[6], NULL, 10) || quantity_milli_value(&q) != strtoll(c[7], NULL, 10)))
      fail_msg("%s: value %lld milli %lld, want %s %s", c[0], (long long)quantity_value(&q),
               (long long)quantity_milli_value(&q), c[6], c[7]);
  }
  fclose(f);
  assert_true(rows > 1900);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_table), cmocka_unit_test(test_invalid),   cmocka_unit_test(test_limits),
      cmocka_unit_test(test_canonical),   cmocka_unit_test(test_string),    cmocka_unit_test(test_kept_text),
      cmocka_unit_test(test_new_set),     cmocka_unit_test(test_value),     cmocka_unit_test(test_cmp),
      cmocka_unit_test(test_add_sub),     cmocka_unit_test(test_format_buffer), cmocka_unit_test(test_vectors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
