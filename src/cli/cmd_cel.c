/* cmd_cel.c: `dra cel -e EXPR [-f FILE ...] [--feature-gates ...] [--derived]`:
 * compiles EXPR as kube-apiserver validates a device selector (or a derived
 * attribute) and, with -f, evaluates it on every device of every
 * ResourceSlice in the files as the scheduler would. Exit 0 when it compiles
 * (per-device errors are printed, not fatal), 2 on refusal or bad input. */
#include "commands.h"
#include "cli_flags.h"
#include "cel/cel.h"
#include "codec/doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct device_buf {
  cel_device dev;
  cel_device_attr *attrs;
  cel_device_capacity *caps;
  char error[512];
  void **owned; /* list payloads to free */
  size_t n_owned;
} device_buf;

static void *own(device_buf *b, size_t size) {
  void *p = calloc(1, size ? size : 1);
  b->owned = realloc(b->owned, (b->n_owned + 1) * sizeof *b->owned);
  b->owned[b->n_owned++] = p;
  return p;
}

static void device_free(device_buf *b) {
  for (size_t i = 0; i < b->n_owned; i++) free(b->owned[i]);
  free(b->owned);
  free(b->attrs);
  free(b->caps);
}

/* One API attribute value to the CEL view; false with b->error set. */
static bool convert_attr(device_buf *b, const char *name, json_t *v, bool lists, cel_attr_value *out) {
  static const char *const list_keys[] = {"ints", "bools", "strings", "versions"};
  for (int k = 0; k < 4 && lists; k++) {
    json_t *l = json_object_get(v, list_keys[k]);
    if (!json_is_array(l)) continue;
    size_t n = json_array_size(l);
    out->n = (uint32_t)n;
    out->kind = (cel_attr_kind)(CEL_ATTR_INTS + k);
    if (k == 0) {
      int64_t *a = own(b, n * sizeof *a);
      for (size_t i = 0; i < n; i++) a[i] = json_integer_value(json_array_get(l, i));
      out->ints = a;
    } else if (k == 1) {
      bool *a = own(b, n * sizeof *a);
      for (size_t i = 0; i < n; i++) a[i] = json_is_true(json_array_get(l, i));
      out->bools = a;
    } else if (k == 2) {
      cel_str *a = own(b, n * sizeof *a);
      for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(l, i);
        a[i] = (cel_str){json_string_value(s) ? json_string_value(s) : "", (uint32_t)json_string_length(s)};
      }
      out->strs = a;
    } else {
      semver *a = own(b, n * sizeof *a);
      for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(l, i);
        if (!json_is_string(s) || !semver_parse(json_string_value(s), json_string_length(s), &a[i])) {
          char msg[256];
          const char *t = json_string_value(s) ? json_string_value(s) : "";
          snprintf(b->error, sizeof b->error, "attribute %s: parse semantic version: %s", name,
                   cel_semver_error(t, strlen(t), msg, sizeof msg));
          return false;
        }
      }
      out->vers = a;
    }
    return true;
  }
  json_t *x;
  if (json_is_integer(x = json_object_get(v, "int"))) {
    *out = (cel_attr_value){.kind = CEL_ATTR_INT, .i = json_integer_value(x)};
  } else if (json_is_boolean(x = json_object_get(v, "bool"))) {
    *out = (cel_attr_value){.kind = CEL_ATTR_BOOL, .b = json_is_true(x)};
  } else if (json_is_string(x = json_object_get(v, "string"))) {
    *out = (cel_attr_value){.kind = CEL_ATTR_STRING, .str = {json_string_value(x), (uint32_t)json_string_length(x)}};
  } else if (json_is_string(x = json_object_get(v, "version"))) {
    semver *s = own(b, sizeof *s);
    out->kind = CEL_ATTR_VERSION, out->ver = s;
    if (!semver_parse(json_string_value(x), json_string_length(x), s)) {
      char msg[256];
      snprintf(b->error, sizeof b->error, "attribute %s: parse semantic version: %s", name,
               cel_semver_error(json_string_value(x), json_string_length(x), msg, sizeof msg));
      return false;
    }
  } else {
    snprintf(b->error, sizeof b->error, "attribute %s: unsupported attribute value", name);
    return false;
  }
  return true;
}

static void convert_device(device_buf *b, const atom *driver, json_t *d, bool lists) {
  memset(b, 0, sizeof *b);
  b->dev.driver = driver;
  json_t *attrs = json_object_get(d, "attributes"), *caps = json_object_get(d, "capacity");
  b->attrs = calloc(json_object_size(attrs) + 1, sizeof *b->attrs);
  b->caps = calloc(json_object_size(caps) + 1, sizeof *b->caps);
  const char *key;
  json_t *v;
  json_object_foreach(attrs, key, v) {
    cel_device_attr *a = &b->attrs[b->dev.n_attrs++];
    cel_split_qualified_name(key, strlen(key), driver, &a->domain, &a->name);
    if (!b->error[0] && !convert_attr(b, key, v, lists, &a->value)) b->dev.error = b->error;
  }
  json_object_foreach(caps, key, v) {
    cel_device_capacity *c = &b->caps[b->dev.n_caps++];
    cel_split_qualified_name(key, strlen(key), driver, &c->domain, &c->name);
    json_t *q = json_object_get(v, "value");
    const char *s = json_is_string(q) ? json_string_value(q) : "0";
    quantity_parse(s, strlen(s), &c->value, NULL);
  }
  json_t *multi = json_object_get(d, "allowMultipleAllocations");
  b->dev.allow_multiple = json_is_boolean(multi) ? (json_is_true(multi) ? CEL_TRI_TRUE : CEL_TRI_FALSE) : CEL_TRI_UNSET;
  b->dev.attrs = b->attrs;
  b->dev.names_unique = cel_attr_names_unique(b->attrs, b->dev.n_attrs);
  b->dev.caps = b->caps;
}

static void print_value(const cel_attr_value *v) {
  char buf[64];
  switch (v->kind) {
  case CEL_ATTR_INT: printf("%lld", (long long)v->i); return;
  case CEL_ATTR_BOOL: printf("%s", v->b ? "true" : "false"); return;
  case CEL_ATTR_STRING: printf("%.*s", (int)v->str.len, v->str.s); return;
  case CEL_ATTR_VERSION:
    snprintf(buf, sizeof buf, "%llu.%llu.%llu", (unsigned long long)v->ver->major, (unsigned long long)v->ver->minor,
             (unsigned long long)v->ver->patch);
    printf("%s", buf);
    if (v->ver->pre) printf("-%.*s", (int)v->ver->pre_len, v->ver->pre);
    if (v->ver->build) printf("+%.*s", (int)v->ver->build_len, v->ver->build);
    return;
  default: break;
  }
  putchar('[');
  for (uint32_t i = 0; i < v->n; i++) {
    if (i) fputs(", ", stdout);
    cel_attr_value e = {.kind = (cel_attr_kind)(v->kind - CEL_ATTR_INTS)};
    switch (v->kind) {
    case CEL_ATTR_INTS: e.i = v->ints[i]; break;
    case CEL_ATTR_BOOLS: e.b = v->bools[i]; break;
    case CEL_ATTR_STRINGS: e.str = v->strs[i]; break;
    default: e.ver = &v->vers[i]; break;
    }
    print_value(&e);
  }
  putchar(']');
}

static void eval_slice(const cel_program *p, json_t *slice, bool derived, bool lists) {
  json_t *spec = json_object_get(slice, "spec");
  const char *driver = json_string_value(json_object_get(spec, "driver"));
  const char *pool = json_string_value(json_object_get(json_object_get(spec, "pool"), "name"));
  const atom *drv = atom_cstr(driver ? driver : "");
  json_t *devices = json_object_get(spec, "devices"), *d;
  size_t i;
  json_array_foreach(devices, i, d) {
    const char *name = json_string_value(json_object_get(d, "name"));
    device_buf b;
    convert_device(&b, drv, d, lists);
    printf("%s/%s/%s: ", driver ? driver : "", pool ? pool : "", name ? name : "");
    cel_error err;
    if (derived) {
      cel_attr_value v;
      if (cel_eval_device(p, &b.dev, NULL, &v, &err)) print_value(&v);
      else printf("error: %s", err.msg);
    } else {
      int r = cel_eval_selector(p, &b.dev, NULL, &err);
      if (r < 0) printf("error: %s", err.msg);
      else printf("%s", r ? "true" : "false");
    }
    putchar('\n');
    device_free(&b);
  }
}

int cmd_cel(int argc, char **argv) {
  cli_common opts;
  const char *expr = NULL;
  bool derived = false;
  const cli_flag extra[] = {{"expression", 'e', CLI_FLAG_STRING, &expr}, {"derived", 0, CLI_FLAG_BOOL, &derived}, {0}};
  if (!cli_parse(argc, argv, "cel", &opts, extra)) return 2;
  if (opts.help) {
    puts("usage: dra cel -e EXPR [-f FILE|DIR|- ...] [-R] [--feature-gates A=true,B=false] [--derived]\n"
         "Compiles EXPR as kube-apiserver validates a device selector (or, with --derived, a derived\n"
         "attribute). Without -f prints \"ok (estimated cost N)\". With -f evaluates it on every device of\n"
         "every ResourceSlice: <driver>/<pool>/<device>: true|false|<value>|error: <message>.\n"
         "Exit 0 when the expression compiles; 2 when it is refused or input can't be read.");
    cli_common_free(&opts);
    return 0;
  }
  if (!expr) {
    fprintf(stderr, "error: -e EXPR is required\n");
    cli_common_free(&opts);
    return 2;
  }
  bool lists = gate_on(&opts.gates, GATE_LIST_TYPE_ATTRIBUTES);
  cel_options o = {.env = CEL_ENV_NEW_EXPRESSIONS,
                   .consumable_capacity = gate_on(&opts.gates, GATE_CONSUMABLE_CAPACITY),
                   .list_type_attributes = lists, .derived = derived, .derived_name = "(-e)", .validate = true};
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), &o, &res);
  if (!p) {
    fprintf(stderr, "%s\n", res.error);
    cel_compile_result_free(&res);
    cli_common_free(&opts);
    return 2;
  }
  int rc = 0;
  if (!opts.n_files) {
    printf("ok (estimated cost %llu)\n", (unsigned long long)res.estimated_cost);
  } else {
    docset ds = {0};
    strbuf err = STRBUF_INIT;
    if (docs_load_paths((const char *const *)opts.files, opts.n_files, opts.recursive, &ds, &err)) {
      fprintf(stderr, "error: %s\n", sb_str(&err));
      rc = 2;
    } else {
      for (size_t i = 0; i < ds.n; i++) {
        const char *kind = json_string_value(json_object_get(ds.items[i].root, "kind"));
        if (kind && !strcmp(kind, "ResourceSlice")) eval_slice(p, ds.items[i].root, derived, lists);
      }
    }
    sb_free(&err);
    docset_free(&ds);
  }
  cel_program_free(p);
  cel_compile_result_free(&res);
  cel_thread_release();
  cli_common_free(&opts);
  return rc;
}
