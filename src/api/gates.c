/* gates.c: feature gate names, defaults and the --feature-gates parser. */
#include "api/gates.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const names[GATE_COUNT] = {
#define GATE_NAME(id, name, on) name,
    DRA_GATES(GATE_NAME)
#undef GATE_NAME
};

static const bool defaults[GATE_COUNT] = {
#define GATE_DEFAULT(id, name, on) on,
    DRA_GATES(GATE_DEFAULT)
#undef GATE_DEFAULT
};

void gates_default(feature_gates *g) {
  for (int i = 0; i < GATE_COUNT; i++) g->on[i] = defaults[i];
}

const char *gate_name(gate_id id) { return id < GATE_COUNT ? names[id] : "?"; }

static bool parse_bool(const char *s, size_t n, bool *out) {
  if ((n == 4 && !strncasecmp(s, "true", 4)) || (n == 1 && (*s == '1' || *s == 't' || *s == 'T'))) {
    *out = true;
    return true;
  }
  if ((n == 5 && !strncasecmp(s, "false", 5)) || (n == 1 && (*s == '0' || *s == 'f' || *s == 'F'))) {
    *out = false;
    return true;
  }
  return false;
}

bool gates_parse(feature_gates *g, const char *spec, char *err, unsigned err_len) {
  const char *p = spec;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    while (len && (*p == ' ')) p++, len--;
    while (len && p[len - 1] == ' ') len--;
    if (len) {
      const char *eq = memchr(p, '=', len);
      if (!eq) {
        snprintf(err, err_len, "missing bool value for %.*s", (int)len, p);
        return false;
      }
      size_t name_len = (size_t)(eq - p);
      int found = -1;
      for (int i = 0; i < GATE_COUNT; i++)
        if (strlen(names[i]) == name_len && !memcmp(names[i], p, name_len)) found = i;
      if (found < 0) {
        snprintf(err, err_len, "unrecognized feature gate: %.*s", (int)name_len, p);
        return false;
      }
      bool v;
      if (!parse_bool(eq + 1, len - name_len - 1, &v)) {
        snprintf(err, err_len, "invalid value of %.*s: %.*s", (int)name_len, p, (int)(len - name_len - 1), eq + 1);
        return false;
      }
      g->on[found] = v;
    }
    if (!end) break;
    p = end + 1;
  }
  return true;
}
