/* output.c: tables, colors and -o json|yaml (see output.h). */
#include "output.h"
#include "yamljson.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool out_parse_format(const char *text, out_format *f) {
  if (!text || !*text) *f = OUT_TABLE;
  else if (!strcmp(text, "wide")) *f = OUT_WIDE;
  else if (!strcmp(text, "json")) *f = OUT_JSON;
  else if (!strcmp(text, "yaml")) *f = OUT_YAML;
  else return false;
  return true;
}

bool out_color(void) {
  const char *no = getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(no && *no);
}

char *out_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) abort();
  va_end(ap);
  return s;
}

void table_init(table *t, const char *const *headers) {
  memset(t, 0, sizeof *t);
  while (headers[t->ncols]) t->ncols++;
  table_add(t, headers);
}

void table_add(table *t, const char *const *cells) {
  if (t->nrows == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->cells = realloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
    t->paint = realloc(t->paint, t->cap * t->ncols * sizeof *t->paint);
    if (!t->cells || !t->paint) abort();
  }
  for (size_t c = 0; c < t->ncols; c++) {
    t->cells[t->nrows * t->ncols + c] = strdup(cells[c] && *cells[c] ? cells[c] : "<none>");
    t->paint[t->nrows * t->ncols + c] = PAINT_NONE;
  }
  t->nrows++;
}

void table_paint(table *t, size_t col, out_paint p) { t->paint[(t->nrows - 1) * t->ncols + col] = p; }

static const char *const paint_codes[] = {"", "\033[32m", "\033[33m", "\033[31m", "\033[1m", "\033[2m"};

void table_print(table *t, FILE *f, const char *empty_message) {
  if (t->nrows == 1) {
    if (empty_message) fprintf(stderr, "%s\n", empty_message);
  } else {
    bool color = out_color();
    size_t *width = calloc(t->ncols, sizeof *width);
    if (!width) abort();
    for (size_t r = 0; r < t->nrows; r++)
      for (size_t c = 0; c < t->ncols; c++) {
        size_t w = strlen(t->cells[r * t->ncols + c]);
        if (w > width[c]) width[c] = w;
      }
    for (size_t r = 0; r < t->nrows; r++) {
      for (size_t c = 0; c < t->ncols; c++) {
        const char *cell = t->cells[r * t->ncols + c];
        out_paint p = r == 0 ? PAINT_BOLD : t->paint[r * t->ncols + c];
        bool last = c + 1 == t->ncols;
        if (color && p) fprintf(f, "%s%s\033[0m", paint_codes[p], cell);
        else fputs(cell, f);
        if (!last) fprintf(f, "%*s", (int)(width[c] - strlen(cell) + 3), "");
      }
      fputc('\n', f);
    }
    free(width);
  }
  table_free(t);
}

void table_free(table *t) {
  for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
  free(t->cells);
  free(t->paint);
  memset(t, 0, sizeof *t);
}

void out_document(json_t *doc, out_format f) {
  if (f == OUT_YAML) {
    char *y = json_to_yaml(doc);
    fputs(y, stdout);
    free(y);
  } else {
    char *j = json_dumps(doc, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
    puts(j);
    free(j);
  }
  json_decref(doc);
}
