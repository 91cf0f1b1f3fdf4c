/* cel_env.c: the function registry. Every library file contributes a table
 * of overloads with textual signatures; they are parsed once into types and
 * indexed by function name for the checker and by id for the cost model. */
#include "cel/cel_internal.h"
#include "util/die.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static cel_lib *const libs[] = {&cel_lib_std, &cel_lib_strings, &cel_lib_lists, &cel_lib_regex, &cel_lib_net,
                                &cel_lib_semver, &cel_lib_quantity, &cel_lib_dra, &cel_lib_optional, &cel_lib_sets, &cel_lib_time, &cel_lib_url, &cel_lib_format};

typedef struct {
  const char *name;
  const cel_overload **ovs;
  size_t n;
} fn_entry;

static fn_entry *fns;
static size_t nfns;
static arena *env_mem;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* "recv.name(a, b) -> r" or "name(a) -> r"; the receiver is params[0].
 * A receiver is either a parameterised type ("list(A).sum()") or the longest
 * dotted prefix of the name that is a type ("kubernetes.Semver.major()"). */
static void parse_sig(cel_overload *o) {
  const char *s = o->sig, *paren;
  o->nparams = 0;
  o->member = false;
  const char *r = s;
  const cel_type *recv = (!strncmp(s, "list(", 5) || !strncmp(s, "map(", 4) || !strncmp(s, "optional_type(", 14))
                             ? cel_type_parse(env_mem, &r)
                             : NULL;
  if (recv && *r == '.') {
    o->member = true;
    o->params[o->nparams++] = recv;
    s = r + 1;
  } else {
    paren = strchr(s, '(');
    for (const char *d = paren - 1; d > s && !o->member; d--) {
      if (*d != '.') continue;
      char buf[64];
      size_t n = (size_t)(d - s);
      if (n >= sizeof buf) continue;
      memcpy(buf, s, n);
      buf[n] = 0;
      const char *r = buf;
      const cel_type *t = cel_type_parse(env_mem, &r);
      if (t && *r == 0 && t->kind != TY_PARAM) {
        o->member = true;
        o->params[o->nparams++] = t;
        s = d + 1;
      }
    }
  }
  paren = strchr(s, '(');
  o->name = arena_strndup(env_mem, s, (size_t)(paren - s));
  const char *p = paren + 1;
  while (*p == ' ') p++;
  while (*p != ')') {
    const cel_type *t = cel_type_parse(env_mem, &p);
    if (!t || o->nparams >= 4) die_bug(o->sig);
    o->params[o->nparams++] = t;
    while (*p == ' ' || *p == ',') p++;
  }
  p = strstr(p, "->");
  if (!p) die_bug(o->sig);
  p += 2;
  o->result = cel_type_parse(env_mem, &p);
  if (!o->result) die_bug(o->sig);
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const fn_entry *)a)->name, ((const fn_entry *)b)->name);
}

static void init(void) {
  env_mem = arena_new();
  size_t total = 0;
  for (size_t l = 0; l < sizeof libs / sizeof *libs; l++) total += libs[l]->n;
  fns = arena_calloc(env_mem, total, sizeof *fns);
  for (size_t l = 0; l < sizeof libs / sizeof *libs; l++)
    for (size_t i = 0; i < libs[l]->n; i++) {
      cel_overload *o = &libs[l]->ovs[i];
      parse_sig(o);
      fn_entry *e = NULL;
      for (size_t k = 0; k < nfns && !e; k++)
        if (!strcmp(fns[k].name, o->name)) e = &fns[k];
      if (!e) {
        e = &fns[nfns++];
        e->name = o->name;
        e->ovs = arena_calloc(env_mem, 64, sizeof *e->ovs);
      }
      if (e->n == 64) die_bug("too many overloads");
      e->ovs[e->n++] = o;
    }
  qsort(fns, nfns, sizeof *fns, by_name);
}

void cel_env_init(void) { pthread_once(&once, init); }

const cel_overload *const *cel_env_lookup(const char *name, size_t *n) {
  cel_env_init();
  fn_entry key = {.name = name};
  fn_entry *e = bsearch(&key, fns, nfns, sizeof *fns, by_name);
  *n = e ? e->n : 0;
  return e ? e->ovs : NULL;
}

const cel_overload *cel_env_by_id(const char *id) {
  cel_env_init();
  for (size_t l = 0; l < sizeof libs / sizeof *libs; l++)
    for (size_t i = 0; i < libs[l]->n; i++)
      if (!strcmp(libs[l]->ovs[i].id, id)) return &libs[l]->ovs[i];
  return NULL;
}
