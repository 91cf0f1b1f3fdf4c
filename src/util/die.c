/* die.c: fatal exits and the checked malloc wrappers used outside arenas. */
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void die_oom(void) {
  fputs("dra: out of memory\n", stderr);
  abort();
}

void die_bug(const char *what) {
  fprintf(stderr, "dra: internal error: %s\n", what);
  abort();
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) die_oom();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) die_oom();
  return p;
}

void *xrealloc(void *p, size_t size) {
  p = realloc(p, size ? size : 1);
  if (!p) die_oom();
  return p;
}

char *xstrdup(const char *s) {
  char *p = strdup(s);
  if (!p) die_oom();
  return p;
}

char *xstrndup(const char *s, size_t n) {
  char *p = strndup(s, n);
  if (!p) die_oom();
  return p;
}

void *xgrow(void *items, size_t n, size_t *cap, size_t item_size, size_t first) {
  if (n < *cap) return items;
  *cap = *cap ? *cap * 2 : first;
  return xrealloc(items, *cap * item_size);
}
