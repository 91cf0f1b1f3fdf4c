/* served.c: see served.h. --runtime-config follows k8s.io/apiserver
 * pkg/server/resourceconfig (MergeAPIResourceConfigs) and
 * pkg/server/options/api_enablement.go (Validate): keys api/all, api/ga,
 * api/beta, api/alpha (values exactly "true" or "false", applied in that
 * order), then <group>/<version> (api/v1 is the core group), then
 * <group>/<version>/<resource>; a value is a Go bool, empty meaning true. */
#include "server/served.h"
#include "util/die.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void srv_served_default(srv_served *s) {
  memset(s, 0, sizeof *s);
  for (int k = 0; k < KIND_COUNT; k++) {
    size_t n = 0;
    const api_version *const *all = api_versions_of((api_kind)k, &n);
    for (size_t i = 0; i < n && i < API_MAX_VERSIONS; i++) s->on[k][i] = all[i]->on_by_default;
  }
}

/* v is served by res: a kind's versions may span groups (the Event). */
static bool of_resource(const api_version *v, const srv_resource *res) {
  return !strcmp(api_version_group(v), res->group);
}

typedef enum { STABILITY_GA, STABILITY_BETA, STABILITY_ALPHA, STABILITY_OTHER } stability;

/* gaPattern ^v\d+$, betaPattern ^v\d+beta\d+$, alphaPattern ^v\d+alpha\d+$ */
static stability stability_of(const char *v) {
  if (*v++ != 'v' || !isdigit((unsigned char)*v)) return STABILITY_OTHER;
  while (isdigit((unsigned char)*v)) v++;
  if (!*v) return STABILITY_GA;
  stability st = !strncmp(v, "beta", 4) ? STABILITY_BETA : !strncmp(v, "alpha", 5) ? STABILITY_ALPHA : STABILITY_OTHER;
  if (st == STABILITY_OTHER) return st;
  v += st == STABILITY_BETA ? 4 : 5;
  if (!isdigit((unsigned char)*v)) return STABILITY_OTHER;
  while (isdigit((unsigned char)*v)) v++;
  return *v ? STABILITY_OTHER : st;
}

/* Sets every (kind, version) that matches: group/version (NULL = any),
 * stability (STABILITY_OTHER = any), plural (NULL = any). */
static void set_matching(srv_served *s, const char *group, const char *version, stability st, const char *plural,
                         bool on) {
  for (size_t r = 0; r < srv_n_resources; r++) {
    const srv_resource *res = &srv_resources[r];
    if ((group && strcmp(res->group, group)) || (plural && strcmp(res->plural, plural)))
      continue;
    size_t n = 0;
    const api_version *const *all = api_versions_of((api_kind)res->api_kind, &n);
    for (size_t i = 0; i < n && i < API_MAX_VERSIONS; i++)
      if (of_resource(all[i], res) && (!version || !strcmp(all[i]->version, version)) &&
          (st == STABILITY_OTHER || stability_of(all[i]->version) == st))
        s->on[res->api_kind][i] = on;
  }
}

static bool group_known(const char *group) {
  for (size_t r = 0; r < srv_n_resources; r++)
    if (!strcmp(srv_resources[r].group, group)) return true;
  return false;
}

static bool version_known(const char *group, const char *version) {
  for (size_t r = 0; r < srv_n_resources; r++) {
    const srv_resource *res = &srv_resources[r];
    if (strcmp(res->group, group)) continue;
    if (api_version_find((api_kind)res->api_kind, group, version)) return true;
  }
  return false;
}

/* strconv.ParseBool */
static bool parse_go_bool(const char *v, bool *out) {
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < 6; i++) {
    if (!strcmp(v, yes[i])) return *out = true;
    if (!strcmp(v, no[i])) return !(*out = false);
  }
  return false;
}

typedef struct entry {
  char *key, *value;
} entry;

/* cliflag.ConfigurationMap.Set: comma-separated key=value, trimmed; a
 * later key replaces an earlier one. */
static size_t split_entries(const char *spec, entry **out) {
  size_t n = 0, cap = 0;
  entry *e = NULL;
  char *copy = xstrdup(spec), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (eq) *eq = 0;
    char *k = tok, *v = eq ? eq + 1 : (char *)"";
    while (isspace((unsigned char)*k)) k++;
    for (char *end = k + strlen(k); end > k && isspace((unsigned char)end[-1]);) *--end = 0;
    while (isspace((unsigned char)*v)) v++;
    char *vv = xstrdup(v);
    for (char *end = vv + strlen(vv); end > vv && isspace((unsigned char)end[-1]);) *--end = 0;
    size_t i = 0;
    while (i < n && strcmp(e[i].key, k)) i++;
    if (i == n) {
      e = xgrow(e, n, &cap, sizeof *e, 4);
      e[n++].key = xstrdup(k);
    } else free(e[i].value);
    e[i].value = vv;
  }
  free(copy);
  *out = e;
  return n;
}

static void free_entries(entry *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(e[i].key);
    free(e[i].value);
  }
  free(e);
}

/* In the order kube-apiserver applies them (groupVersionMatchersOrder). */
static const char *const matchers[] = {"api/all", "api/ga", "api/beta", "api/alpha"};

static bool is_matcher(const char *key) {
  for (size_t m = 0; m < 4; m++)
    if (!strcmp(key, matchers[m])) return true;
  return false;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The group/version/resource of a key that is not a matcher; false when
 * it has the wrong number of parts. "api" is the core group. */
static bool split_key(const char *key, char *group, char *version, char *resource, size_t cap) {
  const char *s1 = strchr(key, '/');
  if (!s1) return false;
  const char *s2 = strchr(s1 + 1, '/');
  if (s2 && strchr(s2 + 1, '/')) return false;
  snprintf(group, cap, "%.*s", (int)(s1 - key), key);
  if (!strcmp(group, "api")) group[0] = 0;
  snprintf(version, cap, "%.*s", (int)(s2 ? s2 - s1 - 1 : (long)strlen(s1 + 1)), s1 + 1);
  snprintf(resource, cap, "%s", s2 ? s2 + 1 : "");
  return version[0] != 0;
}

/* Validate's refusal of groups dra does not serve: "unknown api groups
 * a/v1,b/v2", sorted and de-duplicated as sets.List gives them. */
static bool refuse_unknown_groups(entry *e, size_t n, strbuf *err) {
  char group[256], version[256], resource[256];
  char **unknown = xcalloc(n + 1, sizeof *unknown);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (is_matcher(e[i].key) || !split_key(e[i].key, group, version, resource, sizeof group) || group_known(group))
      continue;
    strbuf gv = STRBUF_INIT;
    sb_printf(&gv, "%s%s%s", group, group[0] ? "/" : "", version);
    unknown[k++] = sb_detach(&gv);
  }
  qsort(unknown, k, sizeof *unknown, cmp_str);
  if (k) sb_puts(err, "unknown api groups ");
  for (size_t i = 0; i < k; i++) {
    if (!i || strcmp(unknown[i], unknown[i - 1])) sb_printf(err, "%s%s", i ? "," : "", unknown[i]);
  }
  for (size_t i = 0; i < k; i++) free(unknown[i]);
  free(unknown);
  return k > 0;
}

static bool apply(srv_served *s, entry *e, size_t n, strbuf *err) {
  if (n == 1 && !strcmp(e[0].key, "api/all") && !strcmp(e[0].value, "false")) {
    sb_puts(err, "invalid runtime-config with only api/all=false");
    return false;
  }
  char group[256], version[256], resource[256];
  for (size_t i = 0; i < n; i++) {
    if (!is_matcher(e[i].key) && !split_key(e[i].key, group, version, resource, sizeof group)) {
      sb_printf(err, "runtime-config invalid key %s", e[i].key);
      return false;
    }
  }
  if (refuse_unknown_groups(e, n, err)) return false;
  for (size_t m = 0; m < 4; m++)
    for (size_t i = 0; i < n; i++) {
      if (strcmp(e[i].key, matchers[m])) continue;
      if (strcmp(e[i].value, "true") && strcmp(e[i].value, "false")) {
        sb_printf(err, "invalid value %s=%s", e[i].key, e[i].value);
        return false;
      }
      set_matching(s, NULL, NULL, m == 0 ? STABILITY_OTHER : (stability)(m - 1), NULL, !strcmp(e[i].value, "true"));
    }
  for (int pass = 0; pass < 2; pass++) /* versions, then resources */
    for (size_t i = 0; i < n; i++) {
      if (is_matcher(e[i].key) || !split_key(e[i].key, group, version, resource, sizeof group) ||
          (resource[0] != 0) != (pass == 1))
        continue;
      if (!version_known(group, version)) {
        sb_printf(err, "group version %s%s%s that has not been registered", group, group[0] ? "/" : "", version);
        return false;
      }
      bool on = true;
      if (e[i].value[0] && !parse_go_bool(e[i].value, &on)) {
        sb_printf(err, "invalid value of %s: %s, err: strconv.ParseBool: parsing \"%s\": invalid syntax", e[i].key,
                  e[i].value, e[i].value);
        return false;
      }
      for (const char *p = resource; *p; p++)
        if (isupper((unsigned char)*p)) {
          sb_printf(err, "invalid key %s: group/version/resource and resource is always lowercase plural, not \"%s\"",
                    e[i].key, resource);
          return false;
        }
      set_matching(s, group, version, STABILITY_OTHER, resource[0] ? resource : NULL, on);
    }
  return true;
}

bool srv_served_parse(srv_served *s, const char *spec, strbuf *err) {
  entry *e = NULL;
  size_t n = split_entries(spec ? spec : "", &e);
  bool ok = apply(s, e, n, err);
  free_entries(e, n);
  return ok;
}

const api_version *srv_served_version(const srv_served *s, const srv_resource *res, const char *version) {
  size_t n = 0;
  const api_version *const *all = api_versions_of((api_kind)res->api_kind, &n);
  for (size_t i = 0; i < n && i < API_MAX_VERSIONS; i++)
    if (of_resource(all[i], res) && !strcmp(all[i]->version, version)) return s->on[res->api_kind][i] ? all[i] : NULL;
  return NULL;
}

bool srv_served_in(const srv_served *s, const srv_resource *res, const char *version) {
  return srv_served_version(s, res, version) != NULL;
}

/* Kubernetes' version priority (apimachinery's CompareKubeAwareVersionStrings):
 * GA before beta before alpha, the higher number first within each. */
static int version_rank(const char *v, long *major, long *minor) {
  char *end;
  *major = strtol(v + (*v == 'v'), &end, 10), *minor = 0;
  int level = 2;
  if (!strncmp(end, "beta", 4)) level = 1, *minor = strtol(end + 4, NULL, 10);
  else if (!strncmp(end, "alpha", 5)) level = 0, *minor = strtol(end + 5, NULL, 10);
  return level;
}

static bool version_before(const char *a, const char *b) {
  long amaj, amin, bmaj, bmin;
  int al = version_rank(a, &amaj, &amin), bl = version_rank(b, &bmaj, &bmin);
  if (al != bl) return al > bl;
  if (amaj != bmaj) return amaj > bmaj;
  return amin > bmin;
}

size_t srv_served_group_versions(const srv_served *s, srv_group_version *out, size_t cap) {
  size_t n = 0;
  for (size_t r = 0; r < srv_n_resources; r++) {
    const srv_resource *res = &srv_resources[r];
    size_t nv = 0;
    const api_version *const *all = api_versions_of((api_kind)res->api_kind, &nv);
    for (size_t i = 0; i < nv; i++) {
      const char *version = all[i]->version;
      if (!of_resource(all[i], res) || !srv_served_in(s, res, version)) continue;
      /* a group's versions stay together, the preferred first */
      size_t at = n;
      bool seen = false, placed = false;
      for (size_t j = 0; j < n; j++) {
        if (strcmp(out[j].group, res->group)) continue;
        seen |= !strcmp(out[j].version, version);
        if (!placed) at = j + 1;
        if (!placed && version_before(version, out[j].version)) at = j, placed = true;
      }
      if (seen || n == cap) continue;
      memmove(&out[at + 1], &out[at], (n - at) * sizeof *out);
      out[at] = (srv_group_version){res->group, version};
      n++;
    }
  }
  return n;
}

bool srv_group_version_served(const srv_served *s, const char *group, const char *version) {
  for (size_t r = 0; r < srv_n_resources; r++) {
    const srv_resource *res = &srv_resources[r];
    if (strcmp(res->group, group)) continue;
    size_t nv = 0;
    const api_version *const *all = api_versions_of((api_kind)res->api_kind, &nv);
    for (size_t i = 0; i < nv; i++) {
      const char *v = all[i]->version;
      if (of_resource(all[i], res) && (!version || !strcmp(v, version)) && srv_served_in(s, res, v))
        return true;
    }
  }
  return false;
}

json_t *srv_object_in_version(const api_object *o, const api_version *v) {
  json_t *j = api_object_encode(o);
  if (v && !v->internal) api_version_from_internal(v, j);
  return j;
}

void srv_put_object_text(strbuf *out, store_obj *o, const api_version *v) {
  if (!v || v->internal) {
    store_obj_put_json(o, out);
    return;
  }
  json_t *j = srv_object_in_version(o->object, v);
  char *text = json_dumps(j, JSON_COMPACT);
  sb_puts(out, text);
  free(text);
  json_decref(j);
}
