/* bench_ir.h: instruction counts that a bench script measured under
 * callgrind (one dump per call of the measured function, --dump-after) and
 * hands back to the bench program as "--ir n1,n2,..." so one table shows
 * them next to the native timings. Header-only; counts are taken in order. */
#ifndef DRA_BENCH_IR_H
#define DRA_BENCH_IR_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ir_list {
  const char *next; /* NULL or "" when no counts were given */
} ir_list;

/* Consumes "--ir LIST" at argv[*i] when present. */
static inline void ir_list_from_args(ir_list *l, int argc, char **argv, int *i) {
  l->next = NULL;
  if (*i + 1 < argc && !strcmp(argv[*i], "--ir")) l->next = argv[*i + 1], *i += 2;
}

/* The next count, or -1 when none is left. */
static inline double ir_take(ir_list *l) {
  if (!l->next || !*l->next) return -1;
  char *end;
  double v = strtod(l->next, &end);
  l->next = *end == ',' ? end + 1 : end;
  return v;
}

/* Prints a count right-aligned in width, "-" when unknown. */
static inline void ir_print(double ir, int width) {
  if (ir < 0) printf(" %*s", width, "-");
  else printf(" %*.0f", width, ir);
}

#endif
