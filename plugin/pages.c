/* pages.c: lists read ahead by a reader thread (see pages.h). */
#include "pages.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QUEUE_PAGES = 4 }; /* pages read ahead: a few MB at 500 items a page */

struct pages {
  client *c;
  long chunk_size;
  const pages_list *lists;
  size_t n;
  pthread_t reader;
  pthread_mutex_t mu;
  pthread_cond_t changed; /* a page queued or taken, or stopping */
  page queue[QUEUE_PAGES];
  size_t head, count;
  bool failed;   /* the reader stopped on err, after the queued pages */
  bool stopping; /* the caller is done: read no more */
  char err[4096];
};

/* At p, "key" then optional blanks and a colon: what follows it; else NULL. */
static const char *after_key(const char *p, const char *end, const char *key) {
  size_t n = strlen(key);
  if ((size_t)(end - p) < n + 2 || p[0] != '"' || memcmp(p + 1, key, n) || p[n + 1] != '"') return NULL;
  for (p += n + 2; p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'); p++) {}
  if (p == end || *p != ':') return NULL;
  for (p++; p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'); p++) {}
  return p;
}

/* A page's metadata.continue, found in the text before the items (where
 * kube-apiserver and dra serve write a List's metadata) without parsing the
 * page; NULL when there is none. *unsure when the page is not laid out so
 * (no items key, or a token with escapes): then parse it. */
static char *continue_of(const char *body, size_t len, bool *unsure) {
  const char *end = body + len, *at = NULL;
  *unsure = true;
  for (const char *p = body; p < end; p++) {
    if (*p != '"') continue;
    if (after_key(p, end, "items")) {
      *unsure = false;
      break;
    }
    const char *v = at ? NULL : after_key(p, end, "continue");
    if (v && v < end && *v == '"') at = v + 1;
  }
  if (*unsure || !at) return NULL;
  const char *q = at;
  while (q < end && *q != '"' && *q != '\\') q++;
  if (q == end || *q == '\\') {
    *unsure = true;
    return NULL;
  }
  return q > at ? strndup(at, (size_t)(q - at)) : NULL;
}

/* Fetches one page of l (after cont, or the first) into pg, and its
 * continue token into *next (NULL on the last page). -1 with err. */
static int fetch(pages *p, const pages_list *l, const char *cont, page *pg, char **next, char *err, size_t errlen) {
  const char *prefix = strchr(l->group_version, '/') ? "/apis/" : "/api/";
  int n = snprintf(pg->path, sizeof pg->path, "%s%s%s%s/%s?limit=%ld", prefix, l->group_version,
                   l->namespace_ ? "/namespaces/" : "", l->namespace_ ? l->namespace_ : "", l->resource, p->chunk_size);
  if (cont) {
    char *esc = curl_easy_escape(NULL, cont, 0);
    snprintf(pg->path + n, sizeof pg->path - (size_t)n, "&continue=%s", esc);
    curl_free(esc);
  }
  long status;
  if (client_get(p->c, pg->path, &pg->r, &status, err, errlen)) return -1;
  bool unsure = false;
  *next = continue_of(pg->r.body, pg->r.len, &unsure);
  pg->doc = NULL;
  if (unsure) {
    if (!(pg->doc = json_loadb(pg->r.body, pg->r.len, 0, NULL))) {
      snprintf(err, errlen, "the server's answer to GET %s is not JSON", pg->path);
      response_free(&pg->r);
      return -1;
    }
    const char *c = json_string_value(json_object_get(json_object_get(pg->doc, "metadata"), "continue"));
    *next = c && *c ? strdup(c) : NULL;
  }
  pg->last = !*next;
  return 0;
}

static void *read_all(void *user) {
  pages *p = user;
  char err[sizeof p->err];
  for (size_t i = 0; i < p->n; i++) {
    char *cont = NULL;
    do {
      page pg;
      char *next = NULL;
      int rc = fetch(p, &p->lists[i], cont, &pg, &next, err, sizeof err);
      free(cont);
      cont = next;
      pthread_mutex_lock(&p->mu);
      while (!p->stopping && p->count == QUEUE_PAGES) pthread_cond_wait(&p->changed, &p->mu);
      if (p->stopping) {
        pthread_mutex_unlock(&p->mu);
        if (!rc) {
          response_free(&pg.r);
          json_decref(pg.doc);
        }
        free(cont);
        return NULL;
      }
      if (rc) {
        p->failed = true;
        memcpy(p->err, err, sizeof err);
      } else {
        p->queue[(p->head + p->count++) % QUEUE_PAGES] = pg;
      }
      pthread_cond_broadcast(&p->changed);
      pthread_mutex_unlock(&p->mu);
      if (rc) {
        free(cont);
        return NULL;
      }
    } while (cont);
  }
  pthread_mutex_lock(&p->mu); /* a caller asking past the last page gets an error, not a wait */
  p->failed = true;
  snprintf(p->err, sizeof p->err, "no more pages");
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

pages *pages_start(client *c, long chunk_size, const pages_list *lists, size_t n) {
  pages *p = calloc(1, sizeof *p);
  if (!p) abort();
  *p = (pages){.c = c, .chunk_size = chunk_size, .lists = lists, .n = n};
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->changed, NULL);
  if (pthread_create(&p->reader, NULL, read_all, p)) abort();
  return p;
}

int pages_next(pages *p, page *pg, char *err, size_t errlen) {
  pthread_mutex_lock(&p->mu);
  while (!p->count && !p->failed) pthread_cond_wait(&p->changed, &p->mu);
  int rc = 0;
  if (p->count) {
    *pg = p->queue[p->head];
    p->head = (p->head + 1) % QUEUE_PAGES;
    p->count--;
    pthread_cond_broadcast(&p->changed);
  } else {
    snprintf(err, errlen, "%s", p->err);
    rc = -1;
  }
  pthread_mutex_unlock(&p->mu);
  return rc;
}

void pages_stop(pages *p) {
  pthread_mutex_lock(&p->mu);
  p->stopping = true;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->reader, NULL);
  for (; p->count; p->count--, p->head = (p->head + 1) % QUEUE_PAGES) {
    response_free(&p->queue[p->head].r);
    json_decref(p->queue[p->head].doc);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->changed);
  free(p);
}
