/* fuzz_quantity.c: libFuzzer target for quantity_parse. Whatever parses
 * must print canonically, re-parse to the same value (not always the same
 * text: BinarySI 64000 prints "64000", which reads back as DecimalSI "64k"),
 * and keep its value through add/sub and its sign through value(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "value/quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  quantity q, again;
  const char *err = NULL;
  bool keeps = false;
  if (!quantity_parse_keeping_text((const char *)data, size, &q, &err, &keeps)) {
    if (!err)
      abort();
    return 0;
  }
  if (q.nanos > QUANTITY_MAX_NANOS || q.nanos < -QUANTITY_MAX_NANOS)
    abort();
  char text[64];
  quantity_format_str(&q, text, sizeof text);
  if (!quantity_parse(text, strlen(text), &again, &err) || quantity_cmp(&q, &again) != 0)
    abort();
  /* kept text is what Kubernetes prints; it must denote the same value */
  if (keeps && (!quantity_parse((const char *)data, size, &again, NULL) || quantity_cmp(&q, &again) != 0))
    abort();
  quantity zero = quantity_from_int(0, QUANTITY_DECIMAL_SI);
  quantity sum = quantity_add(zero, q), back = quantity_sub(sum, q);
  if (quantity_cmp(&sum, &q) != 0 || !quantity_is_zero(&back))
    abort();
  int64_t v = quantity_value(&q), milli = quantity_milli_value(&q);
  if ((q.nanos > 0 && (v <= 0 || milli <= 0)) || (q.nanos < 0 && (v >= 0 || milli >= 0)))
    abort();
  return 0;
}
