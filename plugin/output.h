/* output.h: kubectl's ways of printing: a table (columns padded with three
 * spaces, headers upper case, `-o wide` adding columns), `-o json` and
 * `-o yaml` of a report object, and color only on a terminal and never
 * with NO_COLOR set (https://no-color.org). */
#ifndef KDRA_OUTPUT_H
#define KDRA_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum out_format { OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML } out_format;

/* "", "wide", "json", "yaml" into *f; false for anything else. */
bool out_parse_format(const char *text, out_format *f);
/* Whether stdout gets color. */
bool out_color(void);

typedef enum out_paint { PAINT_NONE, PAINT_GREEN, PAINT_YELLOW, PAINT_RED, PAINT_BOLD, PAINT_DIM } out_paint;

typedef struct table {
  size_t ncols, nrows, cap;
  char **cells; /* nrows * ncols */
  out_paint *paint;
} table;

/* A table with the given headers (NULL-terminated). */
void table_init(table *t, const char *const *headers);
/* Appends a row of ncols cells (copied); NULL cells print as "<none>". */
void table_add(table *t, const char *const *cells);
/* Colors the last row's cell col (when color is on). */
void table_paint(table *t, size_t col, out_paint p);
/* Prints and frees it. Without rows it prints nothing, or empty_message
 * (kubectl's "No resources found ...") on stderr when not NULL. */
void table_print(table *t, FILE *f, const char *empty_message);
/* Frees it unprinted (-o json|yaml). */
void table_free(table *t);

/* Prints a report as JSON (4-space indent, as kubectl) or YAML; takes it. */
void out_document(json_t *doc, out_format f);

/* A malloc'd printf. */
char *out_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
