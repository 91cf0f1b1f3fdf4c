/* pages.h: the pages of a sequence of lists (limit/continue), fetched by a
 * reader thread ahead of the caller into a bounded queue, so the server's
 * encoding and the transfer of the next pages overlap the caller's
 * decoding of this one (docs/kubectl-dra.md "Speed"). The caller gets the
 * pages in the same order as one request after another would give them,
 * and the first error where that would have met it. */
#ifndef KDRA_PAGES_H
#define KDRA_PAGES_H
#include "client.h"
#include <jansson.h>
#include <stdbool.h>

typedef struct pages_list {
  const char *group_version, *resource, *namespace_; /* namespace_ NULL: all */
} pages_list;

typedef struct page {
  response r;
  char path[2048]; /* the request's path, for errors */
  json_t *doc;     /* the page parsed, when the reader had to (else NULL) */
  bool last;       /* the last page of its list */
} page;

typedef struct pages pages;

/* Starts reading the lists (borrowed until pages_stop) with c, pages of
 * chunk_size items (0: no limit). The caller must not use c until
 * pages_stop. */
pages *pages_start(client *c, long chunk_size, const pages_list *lists, size_t n);
/* The next page (the caller frees pg->r and pg->doc), or -1 with err: the
 * failed request or a page that is not JSON. */
int pages_next(pages *p, page *pg, char *err, size_t errlen);
/* Stops the reader after its current request and frees what it read. */
void pages_stop(pages *p);

#endif
