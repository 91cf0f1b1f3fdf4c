/* rbac_covers.c: see rbac_covers.h. */
#include "server/rbac_covers.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static void push(rbac_wanted *w, rbac_simple_rule r) {
  w->items = xrealloc(w->items, (w->n + 1) * sizeof *w->items);
  w->items[w->n++] = r;
}

static const char *s(const char *x) { return x ? x : ""; }

void rbac_wanted_add(rbac_wanted *w, const policy_rule *r) {
  for (uint32_t g = 0; g < r->api_groups.n; g++)
    for (uint32_t res = 0; res < r->resources.n; res++) {
      rbac_simple_rule base = {.group = s(r->api_groups.items[g]), .resource = s(r->resources.items[res])};
      if (r->resource_names.n) {
        for (uint32_t n = 0; n < r->resource_names.n; n++)
          for (uint32_t v = 0; v < r->verbs.n; v++) {
            rbac_simple_rule x = base;
            x.name = s(r->resource_names.items[n]);
            x.verb = s(r->verbs.items[v]);
            push(w, x);
          }
      } else {
        for (uint32_t v = 0; v < r->verbs.n; v++) {
          rbac_simple_rule x = base;
          x.verb = s(r->verbs.items[v]);
          push(w, x);
        }
      }
    }
  for (uint32_t u = 0; u < r->non_resource_urls.n; u++)
    for (uint32_t v = 0; v < r->verbs.n; v++)
      push(w, (rbac_simple_rule){.url = s(r->non_resource_urls.items[u]), .verb = s(r->verbs.items[v])});
}

static bool has(const dstr_list *l, const char *x) {
  for (uint32_t i = 0; i < l->n; i++)
    if (!strcmp(s(l->items[i]), x)) return true;
  return false;
}

/* resourceCoversAll for one resource: "*", the resource, or "*\/sub". */
static bool resource_covered(const dstr_list *owner, const char *resource) {
  if (has(owner, "*") || has(owner, resource)) return true;
  const char *slash = strchr(resource, '/');
  if (!slash) return false;
  for (uint32_t i = 0; i < owner->n; i++) {
    const char *o = s(owner->items[i]);
    if (o[0] == '*' && !strcmp(o + 1, slash)) return true;
  }
  return false;
}

static bool url_covered(const dstr_list *owner, const char *url) {
  for (uint32_t i = 0; i < owner->n; i++) {
    const char *o = s(owner->items[i]);
    size_t n = strlen(o);
    if (!strcmp(o, url) || (n && o[n - 1] == '*' && !strncmp(o, url, n - 1))) return true;
  }
  return false;
}

static bool rule_covers(const policy_rule *o, const rbac_simple_rule *r) {
  if (!has(&o->verbs, "*") && !has(&o->verbs, r->verb)) return false;
  if (r->url) return !o->resource_names.n && url_covered(&o->non_resource_urls, r->url);
  if (!has(&o->api_groups, "*") && !has(&o->api_groups, r->group)) return false;
  if (!resource_covered(&o->resources, r->resource)) return false;
  if (!r->name) return !o->resource_names.n;
  return !o->resource_names.n || has(&o->resource_names, r->name);
}

void rbac_wanted_cover(rbac_wanted *w, const policy_rule *owner) {
  for (size_t i = 0; i < w->n; i++)
    if (!w->items[i].covered && rule_covers(owner, &w->items[i])) w->items[i].covered = true;
}

bool rbac_wanted_all_covered(const rbac_wanted *w) {
  for (size_t i = 0; i < w->n; i++)
    if (!w->items[i].covered) return false;
  return true;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool same_resource(const rbac_simple_rule *a, const rbac_simple_rule *b) {
  return !a->url && !b->url && !strcmp(a->group, b->group) && !strcmp(a->resource, b->resource) &&
         !a->name == !b->name && (!a->name || !strcmp(a->name, b->name));
}

/* CompactString of the compacted rule starting at first (simple resource
 * rules with the same group, resource and name share one verb list). */
static char *compact_string(const rbac_wanted *w, size_t first) {
  const rbac_simple_rule *r = &w->items[first];
  strbuf sb = STRBUF_INIT;
  sb_putc(&sb, '{');
  if (r->url) {
    sb_puts(&sb, "NonResourceURLs:[");
    sb_go_quote(&sb, r->url);
    sb_puts(&sb, "], ");
  } else {
    sb_puts(&sb, "APIGroups:[");
    sb_go_quote(&sb, r->group);
    sb_puts(&sb, "], Resources:[");
    sb_go_quote(&sb, r->resource);
    sb_puts(&sb, "], ");
    if (r->name) {
      sb_puts(&sb, "ResourceNames:[");
      sb_go_quote(&sb, r->name);
      sb_puts(&sb, "], ");
    }
  }
  sb_puts(&sb, "Verbs:[");
  size_t shown = 0;
  for (size_t i = first; i < w->n; i++) {
    const rbac_simple_rule *x = &w->items[i];
    if (x->covered || (i != first && (r->url || !same_resource(r, x)))) continue;
    if (shown++) sb_putc(&sb, ' ');
    sb_go_quote(&sb, x->verb);
  }
  sb_puts(&sb, "]}");
  return sb_detach(&sb);
}

void rbac_wanted_missing_text(const rbac_wanted *w, strbuf *out) {
  char **lines = NULL;
  size_t n = 0;
  for (size_t i = 0; i < w->n; i++) {
    if (w->items[i].covered) continue;
    bool merged = false; /* into an earlier rule of the same resource */
    for (size_t j = 0; j < i && !merged; j++)
      merged = !w->items[j].covered && !w->items[i].url && same_resource(&w->items[j], &w->items[i]);
    if (merged) continue;
    lines = xrealloc(lines, (n + 1) * sizeof *lines);
    lines[n++] = compact_string(w, i);
  }
  if (n) qsort(lines, n, sizeof *lines, cmp_str);
  size_t shown = 0;
  for (size_t i = 0; i < n; i++)
    if (!i || strcmp(lines[i], lines[i - 1])) sb_printf(out, "%s%s", shown++ ? "\n" : "", lines[i]);
  for (size_t i = 0; i < n; i++) free(lines[i]);
  free(lines);
}

static void list_of_one(arena *a, dstr_list *l, const char *v) {
  l->items = arena_alloc(a, sizeof *l->items);
  l->items[0] = arena_strdup(a, v);
  l->n = 1;
  l->set = true;
}

void rbac_wanted_missing_append(const rbac_wanted *w, arena *a, policy_rule_list *rules) {
  size_t missing = 0;
  for (size_t i = 0; i < w->n; i++) missing += !w->items[i].covered;
  if (!missing) return;
  policy_rule *items = arena_alloc(a, (rules->n + missing) * sizeof *items);
  if (rules->n) memcpy(items, rules->items, rules->n * sizeof *items);
  for (size_t i = 0; i < w->n; i++) {
    const rbac_simple_rule *r = &w->items[i];
    if (r->covered) continue;
    policy_rule *p = &items[rules->n++];
    memset(p, 0, sizeof *p);
    list_of_one(a, &p->verbs, r->verb);
    if (r->url) {
      list_of_one(a, &p->non_resource_urls, r->url);
      continue;
    }
    list_of_one(a, &p->api_groups, r->group);
    list_of_one(a, &p->resources, r->resource);
    if (r->name) list_of_one(a, &p->resource_names, r->name);
  }
  rules->items = items;
  rules->set = true;
}

void rbac_wanted_free(rbac_wanted *w) {
  free(w->items);
  w->items = NULL;
  w->n = 0;
}
