/* selector.c: evaluating selectors and explaining misses (see selector.h). */
#include "selector.h"
#include <stdio.h>
#include <stdlib.h>

struct selection {
  json_t *results; /* "driver/pool/device" -> the item of dra_select_devices(_why) */
};

selection *selection_run(dra_ctx *ctx, const char *expr, bool why, char *err, size_t errlen) {
  char *text = NULL;
  if ((why ? dra_select_devices_why : dra_select_devices)(ctx, expr, &text) != DRA_OK) {
    snprintf(err, errlen, "%s", dra_errmsg(ctx));
    return NULL;
  }
  json_t *doc = json_loads(text, 0, NULL);
  dra_free(text);
  selection *s = calloc(1, sizeof *s);
  if (!s) abort();
  s->results = json_object();
  size_t i;
  json_t *item;
  json_array_foreach(json_object_get(doc, "items"), i, item) {
    char key[1024];
    snprintf(key, sizeof key, "%s/%s/%s", json_string_value(json_object_get(item, "driver")),
             json_string_value(json_object_get(item, "pool")), json_string_value(json_object_get(item, "device")));
    json_object_set(s->results, key, item);
  }
  json_decref(doc);
  return s;
}

void selection_free(selection *s) {
  if (!s) return;
  json_decref(s->results);
  free(s);
}

static const json_t *item_of(const selection *s, const inv_device *d) {
  char key[1024];
  snprintf(key, sizeof key, "%s/%s/%s", d->driver, d->pool, d->name);
  return json_object_get(s->results, key);
}

int selection_result(const selection *s, const inv_device *d, const char **error) {
  const json_t *item = item_of(s, d), *e = json_object_get(item, "error");
  if (e) {
    if (error) *error = json_string_value(e);
    return -1;
  }
  return json_is_true(json_object_get(item, "matches"));
}

const char *selection_why(const selection *s, const inv_device *d) {
  return json_string_value(json_object_get(item_of(s, d), "why"));
}
