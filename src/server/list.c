/* list.c: list, watch and deletecollection for list.h. Lists come from the
 * store in namespace/name order; a continue token carries the last key
 * returned, so a page resumes after it: the store starts the page there
 * and stops once it is full. */
#include "server/list.h"
#include "api/label_selector.h"
#include "codec/pb_codec.h"
#include "server/continue_token.h"
#include "server/media.h"
#include "server/deletion.h"
#include "server/fresh.h"
#include "server/selector.h"
#include "server/status.h"
#include "server/table.h"
#include "store/meta.h"
#include "store/store_obj.h"
#include "util/die.h"
#include "util/log.h"
#include "util/workqueue.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct list_filter {
  selector labels, fields;
} list_filter;

/* The selectors of the request, the field labels in the internal version. */
static bool parse_filter(const http_request *req, const route *r, list_filter *f, http_response *resp) {
  memset(f, 0, sizeof *f);
  strbuf err = STRBUF_INIT;
  if (!label_selector_parse(http_query_get(req, "labelSelector"), &f->labels, &err) ||
      !field_selector_parse(http_query_get(req, "fieldSelector"), &f->fields, &err) ||
      !field_selector_to_internal(&f->fields, r->wire, &err)) {
    srv_status_bad_request(resp, sb_str(&err));
    sb_free(&err);
    selector_free(&f->labels);
    selector_free(&f->fields);
    return false;
  }
  sb_free(&err);
  return true;
}

static bool filter_matches(const list_filter *f, const api_object *o) {
  return label_selector_matches(&f->labels, api_object_meta(o)) && field_selector_matches(&f->fields, o);
}

/* filter_matches as a store_query's match. */
static bool query_matches(void *f, const api_object *o) { return filter_matches(f, o); }

static void filter_free(list_filter *f) {
  selector_free(&f->labels);
  selector_free(&f->fields);
}

static store_query query_for(const route *r) {
  store_query q = {.kind = (api_kind)r->resource->api_kind, .namespace_ = r->namespace_, .order = STORE_BY_NAME};
  return q;
}

/* The state a list reads and how it pages, from its options as
 * kube-apiserver's storage decides (apiserver's storage/cacher
 * shouldDelegateList and computeListLimit, etcd3 store GetList):
 * - continue: the state at the token's resourceVersion (or the latest);
 * - resourceVersion "0" without continue: the latest, whole (the watch
 *   cache ignores limit there);
 * - resourceVersion N with resourceVersionMatch Exact, or with none and a
 *   limit: the state at N (fresh.c waited until the store reached it);
 * - otherwise (no resourceVersion, NotOlderThan, N without a limit): the
 *   latest. */
typedef struct list_plan {
  char *start;    /* with continue: the "<namespace>/<name>" the page starts after */
  uint64_t at_rv; /* 0: the latest state */
  long limit;     /* 0: every object */
} list_plan;

static bool plan_list(const http_request *req, list_plan *plan, http_response *resp) {
  *plan = (list_plan){0};
  const char *limit_text = http_query_get(req, "limit");
  if (limit_text && *limit_text) {
    char *end;
    errno = 0;
    plan->limit = strtol(limit_text, &end, 10);
    if (*end || errno || plan->limit < 0) plan->limit = 0;
  }
  const char *cont = http_query_get(req, "continue");
  if (cont && *cont) {
    int64_t token_rv;
    if (!continue_token_parse(cont, &plan->start, &token_rv)) {
      srv_status_bad_request(resp, "invalid continue token: continue key is not valid: "
                                   "the token is not one this server issued");
      return false;
    }
    plan->at_rv = token_rv > 0 ? (uint64_t)token_rv : 0;
    return true;
  }
  const char *rv = http_query_get(req, "resourceVersion"), *match = http_query_get(req, "resourceVersionMatch");
  if (rv && !strcmp(rv, "0")) plan->limit = 0;
  bool exact = match && !strcmp(match, "Exact"), legacy = !match || !*match;
  if (rv && *rv && (exact || (legacy && plan->limit))) plan->at_rv = strtoull(rv, NULL, 10);
  return true;
}

/* 410 Expired for a list whose state the store no longer has (etcd3
 * store's interpretListError): a continued list gets a token that goes on
 * from the same key on the latest state, as kube-apiserver hands out after
 * a compaction. */
static void refuse_expired(http_response *resp, const char *start) {
  if (!start) {
    srv_status(resp, 410, "Expired", "The resourceVersion for the provided list is too old.", NULL);
    return;
  }
  char *token = continue_token_make(CONTINUE_AT_LATEST, start);
  json_t *status = json_pack(
      "{s:s,s:s,s:{s:s},s:s,s:s,s:s,s:i}", "kind", "Status", "apiVersion", "v1", "metadata", "continue", token,
      "status", "Failure", "message",
      "The provided continue parameter is too old to display a consistent list result. You can start a new list "
      "without the continue parameter, or use the continue token in this response to retrieve the remainder of the "
      "results. Continuing with the provided token results in an inconsistent list - objects that were created, "
      "modified, or deleted between the time the first chunk was returned and now may show up in the list.",
      "reason", "Expired", "code", 410);
  free(token);
  srv_json_response(resp, 410, status);
}

/* 200 with a <Kind>List of items (n of them) at resourceVersion rv, with
 * its continue token and remainingItemCount (-1: none) when given. */
static void answer_list(http_response *resp, const route *r, store_obj *const *items, size_t n, const char *rv,
                        const char *next, json_int_t remaining) {
  char *gv = srv_api_version(r->resource->group, r->version);
  /* items in the internal version are each version's shared JSON, so such a list encodes nothing again */
  resp->status = 200;
  resp->content_type = "application/json";
  sb_printf(&resp->body, "{\"kind\":\"%sList\",\"apiVersion\":\"%s\",\"metadata\":{\"resourceVersion\":\"%s\"",
            r->resource->kind, gv, rv);
  if (next) sb_printf(&resp->body, ",\"continue\":\"%s\"", next);
  if (remaining >= 0) sb_printf(&resp->body, ",\"remainingItemCount\":%lld", (long long)remaining);
  sb_puts(&resp->body, "},\"items\":[");
  for (size_t i = 0; i < n; i++) {
    if (i) sb_putc(&resp->body, ',');
    srv_put_object_text(&resp->body, items[i], r->wire);
  }
  sb_puts(&resp->body, "]}\n");
  free(gv);
}

void srv_list(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!fresh_check(s->committed, req, resp)) return;
  list_filter f;
  if (!parse_filter(req, r, &f, resp)) return;
  list_plan plan;
  if (!plan_list(req, &plan, resp)) {
    filter_free(&f);
    return;
  }
  /* The store orders keys as the text "<namespace>/<name>" (etcd's
   * order); it takes the two parts apart. Neither a namespace nor a name
   * can contain '/', so the first '/' splits the key. */
  char *slash = plan.start ? strchr(plan.start, '/') : NULL;
  if (slash) *slash = '\0';
  store_query q = query_for(r);
  q.after_namespace = plan.start;
  q.after_name = plan.start ? (slash ? slash + 1 : "") : NULL;
  q.match = query_matches;
  q.match_user = &f;
  q.limit = plan.limit ? (size_t)plan.limit + 1 : 0; /* one more tells whether another page follows */
  q.at_rv = plan.at_rv;
  /* remainingItemCount, which the etcd3 store gives only to a list with no selector */
  q.count_rest = plan.limit && !f.labels.n && !f.fields.n;
  store_list page = {0};
  store_status st = store_list_query(s->committed, &q, &page);
  if (st != STORE_OK) {
    if (slash) *slash = '/';
    if (st == STORE_GONE) refuse_expired(resp, plan.start);
    else srv_json_response(resp, 504, fresh_too_large_status(q.at_rv, store_revision(s->committed)));
    free(plan.start);
    filter_free(&f);
    return;
  }
  size_t n = page.n;
  char *next = NULL;
  json_int_t remaining = -1; /* none */
  if (plan.limit && n > (size_t)plan.limit) {
    n = (size_t)plan.limit;
    if (q.count_rest) remaining = (json_int_t)(page.rest + page.n - n);
    char *key = continue_token_key(store_obj_meta(page.items[n - 1]));
    next = continue_token_make((int64_t)page.rv, key);
    free(key);
  }
  char rv[32];
  snprintf(rv, sizeof rv, "%llu", (unsigned long long)page.rv);
  srv_include_object include = SRV_INCLUDE_METADATA;
  strbuf err = STRBUF_INIT;
  bool table = srv_wants_table(req->accept);
  if (table && !srv_include_object_parse(http_query_get(req, "includeObject"), &include, &err)) {
    srv_status_bad_request(resp, sb_str(&err));
  } else if (table) {
    json_t *t = srv_table(r, page.items, n, rv, next, include, true);
    if (remaining >= 0) json_object_set_new(json_object_get(t, "metadata"), "remainingItemCount", json_integer(remaining));
    srv_json_response(resp, 200, t);
  } else {
    answer_list(resp, r, page.items, n, rv, next, remaining);
  }
  sb_free(&err);
  free(next);
  free(plan.start);
  store_list_free(&page);
  filter_free(&f);
}

void srv_delete_collection(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  list_filter f;
  if (!parse_filter(req, r, &f, resp)) return;
  delete_options o;
  if (!srv_delete_options(req, resp, &o)) {
    filter_free(&f);
    return;
  }
  if (o.ignore_store_read_error) { /* the unsafe delete is for one object */
    errlist errs = {0};
    errlist_add(&errs, FE_INVALID, "ignoreStoreReadErrorWithClusterBreakingPotential",
                "Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option");
    srv_status_invalid_as(resp, "meta.k8s.io", "DeleteOptions", "", &errs);
    errlist_free(&errs);
    delete_options_free(&o);
    filter_free(&f);
    return;
  }
  store_query q = query_for(r);
  store_list all = {0};
  store *from = o.dry_run ? s->committed : s->st; /* as srv_reads_of: a dry run sees only what is on disk */
  store_list_query(from, &q, &all);
  size_t n = 0; /* the selected items, moved to the front of all */
  for (size_t i = 0; i < all.n; i++) {
    if (!filter_matches(&f, all.items[i]->object)) continue;
    store_obj *item = all.items[i];
    all.items[i] = all.items[n];
    all.items[n++] = item;
    const object_meta *m = store_obj_meta(item);
    deletion_outcome out;
    srv_delete_object(from, (api_kind)r->resource->api_kind, m->namespace_, m->name, &o, &out);
    deletion_outcome_free(&out);
  }
  /* the answer is the list as read before the deletes (Store.DeleteCollection) */
  char rv[32];
  snprintf(rv, sizeof rv, "%llu", (unsigned long long)all.rv);
  answer_list(resp, r, all.items, n, rv, NULL, -1);
  store_list_free(&all);
  filter_free(&f);
  delete_options_free(&o);
}

/* ---- watch ---- */

/* A watcher whose client reads slower than events arrive is closed once this
 * many bytes wait for it beyond its initial state, as kube-apiserver's
 * cacheWatcher is stopped when its channel stays full (cacher.go,
 * "Forcing ... watcher close due to unresponsiveness"); the client re-lists
 * and watches again. */
#define WATCH_BUFFER_LIMIT (4u * 1024 * 1024)

typedef struct watch_stream {
  dra_server *srv;
  http_stream *stream; /* the transport's handle, for http_stream_wake */
  pthread_mutex_t lock;
  strbuf pending;   /* encoded events not yet sent */
  size_t sent;      /* bytes of pending already sent */
  size_t limit;     /* pending - sent beyond this closes the watch */
  bool ended;       /* nothing more is added; the stream ends once drained */
  uint64_t watch_id;
  /* the last change the store showed this watch (in its selection or
   * not), set under lock with its event: a bookmark says every event up to
   * it was sent, so it may not take the store's revision, which moves
   * before the change reaches the watch (kube-apiserver's cacheWatcher
   * bookmarks in its event order) */
  uint64_t shown_rv;
  bool subscribed;
  /* While the initial state is encoded, the store's events are held here
   * (references) and sent after it: the watch subscribes right after the
   * list, so however long encoding takes, no event it must show leaves the
   * store's history meanwhile (a watch would else get 410 Expired). */
  bool holding;
  workqueue held; /* store_event, each with its references */
  list_filter filter;
  api_kind kind;
  char namespace_[254];
  bool bookmarks;
  time_t deadline, next_bookmark;
  char *gv; /* apiVersion of the resource, for bookmarks */
  const api_version *wire; /* the version the watch asked for */
  bool protobuf;            /* length-delimited WatchEvent frames, not JSON lines */
  bool table;                 /* each object as a one-row Table (Accept as=Table) */
  srv_include_object include; /* what a Table row carries */
  bool headers_sent;          /* an earlier event's Table had the columnDefinitions */
  route route;                /* the resource and version, for its Tables */
} watch_stream;

/* Where the event that holds byte at ends: its line's newline, or for
 * protobuf the end of its frame (a 4-byte big-endian length, then that
 * many bytes). */
static size_t event_end(const watch_stream *w, size_t at) {
  if (!w->protobuf) {
    if (!at || w->pending.buf[at - 1] == '\n') return at;
    const char *nl = memchr(w->pending.buf + at, '\n', w->pending.len - at);
    return nl ? (size_t)(nl - w->pending.buf) + 1 : w->pending.len;
  }
  size_t end = 0;
  while (end < at && end + 4 <= w->pending.len) {
    const unsigned char *p = (const unsigned char *)w->pending.buf + end;
    end += 4 + ((size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3]);
  }
  return end < w->pending.len ? end : w->pending.len;
}

/* Appends one event: a JSON line, or its protobuf frame. An event that
 * cannot be encoded (a Table has no protobuf form) ends the watch, as
 * kube-apiserver's watch handler stops at an encoding error. */
static void put_event(watch_stream *w, const char *type, const char *object, size_t n) {
  if (!w->protobuf) {
    sb_printf(&w->pending, "{\"type\":\"%s\",\"object\":", type);
    sb_add(&w->pending, object, n);
    sb_puts(&w->pending, "}\n");
    return;
  }
  json_error_t jerr;
  json_t *tree = json_loadb(object, n, 0, &jerr);
  strbuf pb = STRBUF_INIT, err = STRBUF_INIT;
  if (tree && pb_encode_object(tree, &pb, &err)) pb_watch_frame(&w->pending, type, pb.buf, pb.len);
  else {
    log_warning("a watch event could not be encoded in protobuf: %s", sb_str(&err));
    w->ended = true;
  }
  json_decref(tree);
  sb_free(&pb);
  sb_free(&err);
}

/* Drops what the client has not started to receive, keeping the event line
 * being sent whole, and ends the stream. Called with w->lock held. */
static void drop_unsent(watch_stream *w) {
  size_t keep = event_end(w, w->sent);
  strbuf rest = STRBUF_INIT; /* a fresh buffer, so the memory goes now */
  sb_add(&rest, w->pending.buf + w->sent, keep - w->sent);
  sb_free(&w->pending);
  w->pending = rest;
  w->sent = 0;
  w->ended = true;
}

/* o as a watch with as=Table sends it (apiserver's watchEmbeddedEncoder):
 * a Table of its one row, whose columnDefinitions only the stream's first
 * event carries; every later one asks with NoHeaders. Called with w->lock
 * held, or before the stream is shared. */
static void put_table_text(watch_stream *w, strbuf *out, store_obj *o, srv_include_object include) {
  json_t *t = srv_table(&w->route, &o, 1, store_obj_meta(o)->resource_version, NULL, include, !w->headers_sent);
  w->headers_sent = true;
  char *text = json_dumps(t, JSON_COMPACT);
  sb_puts(out, text);
  free(text);
  json_decref(t);
}

/* One watch event line; the object's JSON in the internal version is
 * encoded once per version and shared by every watcher. shown_rv: the
 * change it shows (0: one of the initial events), see watch_stream. */
static void enqueue_event(watch_stream *w, const char *type, store_obj *o, uint64_t shown_rv) {
  strbuf object = STRBUF_INIT;
  if (!w->table) srv_put_object_text(&object, o, w->wire);
  pthread_mutex_lock(&w->lock);
  if (shown_rv) w->shown_rv = shown_rv;
  if (w->ended) {
    pthread_mutex_unlock(&w->lock);
    sb_free(&object);
    return;
  }
  if (w->table) put_table_text(w, &object, o, w->include);
  put_event(w, type, object.buf, object.len);
  sb_free(&object);
  if (w->limit && w->pending.len - w->sent > w->limit) {
    log_warning("closing a watch of %s: the client is not reading (%zu bytes waiting)", api_kind_info_of(w->kind)->name,
                w->pending.len - w->sent);
    drop_unsent(w);
  }
  pthread_mutex_unlock(&w->lock);
  if (w->stream) http_stream_wake(w->stream);
}

static bool in_scope(const watch_stream *w, const api_object *o) {
  if (o->info->kind != w->kind) return false;
  const object_meta *m = api_object_meta(o);
  if (w->namespace_[0] && (!m->namespace_ || strcmp(m->namespace_, w->namespace_))) return false;
  return filter_matches(&w->filter, o);
}

/* An object that left the watch's selection: DELETED with the content it
 * had while in it, stamped with the change's resourceVersion. */
static void enqueue_deleted_as_was(watch_stream *w, const store_event *ev) {
  api_object *was = api_object_clone(ev->prev->object);
  meta_set_resource_version(was, ev->rv);
  store_obj *o = store_obj_new(was, ev->rv, ev->prev->created_rv);
  enqueue_event(w, "DELETED", o, ev->rv);
  store_obj_unref(o);
}

/* As kube-apiserver's watch cache shows a change to a filtered watch
 * (cacheWatcher.convertToWatchEvent): an object that comes into the
 * selection is ADDED, one that stays MODIFIED, one that leaves (or is
 * deleted while in it) DELETED; changes outside it are not seen. */
static void show_event(watch_stream *w, const store_event *ev) {
  bool now_in = ev->type != STORE_DELETED && in_scope(w, ev->obj->object);
  bool was_in = ev->type == STORE_ADDED ? false : ev->prev ? in_scope(w, ev->prev->object) : in_scope(w, ev->obj->object);
  if (now_in) enqueue_event(w, was_in ? "MODIFIED" : "ADDED", ev->obj, ev->rv);
  else if (was_in && ev->type == STORE_DELETED) enqueue_event(w, "DELETED", ev->obj, ev->rv);
  else if (was_in) enqueue_deleted_as_was(w, ev);
  else {
    pthread_mutex_lock(&w->lock);
    w->shown_rv = ev->rv;
    pthread_mutex_unlock(&w->lock);
  }
}

static void unref_event(void *item) {
  store_event *ev = item;
  store_obj_unref(ev->obj);
  store_obj_unref(ev->prev);
}

static void on_store_event(void *user, const store_event *ev) {
  watch_stream *w = user;
  pthread_mutex_lock(&w->lock);
  if (w->holding) {
    store_event kept = {ev->type, store_obj_ref(ev->obj), ev->rv, ev->prev ? store_obj_ref(ev->prev) : NULL};
    wq_push(&w->held, &kept);
    pthread_mutex_unlock(&w->lock);
    return;
  }
  pthread_mutex_unlock(&w->lock);
  show_event(w, ev);
}

/* Sends the events held while the initial state was encoded, then lets
 * the store's events through. */
static void release_held(watch_stream *w) {
  for (;;) {
    size_t n;
    pthread_mutex_lock(&w->lock); /* the flag goes with the queue's last take */
    store_event *held = wq_take(&w->held, &n);
    if (!n) w->holding = false;
    pthread_mutex_unlock(&w->lock);
    if (!n) return;
    for (size_t i = 0; i < n; i++) show_event(w, &held[i]);
    wq_free_batch(held, n, sizeof *held, unref_event);
  }
}

/* A bookmark's object as a Table: kube-apiserver converts the empty object
 * that carries the resourceVersion like any other, so its row has that
 * object's cells; the end-of-initial-events bookmark's row carries its
 * metadata unless the whole object was asked for (asTable). */
static void put_bookmark_table(watch_stream *w, strbuf *out, uint64_t rv, bool initial_end) {
  api_object *empty = api_object_new(w->kind);
  meta_set_resource_version(empty, rv);
  if (initial_end) label_add(empty->arena, &api_object_meta(empty)->annotations, "k8s.io/initial-events-end", "true");
  store_obj *o = store_obj_new(empty, rv, rv);
  put_table_text(w, out, o, initial_end && w->include != SRV_INCLUDE_OBJECT ? SRV_INCLUDE_METADATA : w->include);
  store_obj_unref(o);
}

/* A BOOKMARK at rv; initial_end marks the end of the initial events of a
 * streaming list (sendInitialEvents), with upstream's annotation. */
static void enqueue_bookmark_at(watch_stream *w, uint64_t rv, bool initial_end) {
  strbuf object = STRBUF_INIT;
  if (w->table) put_bookmark_table(w, &object, rv, initial_end);
  else
    sb_printf(&object, "{\"kind\":\"%s\",\"apiVersion\":\"%s\",\"metadata\":{\"resourceVersion\":\"%llu\"%s}}",
              api_kind_info_of(w->kind)->name, w->gv, (unsigned long long)rv,
              initial_end ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "");
  put_event(w, "BOOKMARK", object.buf, object.len);
  sb_free(&object);
}

/* With w->lock held. */
static void enqueue_bookmark(watch_stream *w) { enqueue_bookmark_at(w, w->shown_rv, false); }

/* Never blocks: what is pending, else 0 (on_store_event or watch_tick wake
 * the transport when there is more), or the end once ended and drained. */
static ptrdiff_t watch_read(void *ctx, char *buf, size_t max) {
  watch_stream *w = ctx;
  pthread_mutex_lock(&w->lock);
  if (w->sent == w->pending.len) {
    sb_truncate(&w->pending, 0);
    w->sent = 0;
    bool ended = w->ended;
    pthread_mutex_unlock(&w->lock);
    return ended ? HTTP_STREAM_END : 0;
  }
  size_t n = w->pending.len - w->sent;
  if (n > max) n = max;
  memcpy(buf, w->pending.buf + w->sent, n);
  w->sent += n;
  pthread_mutex_unlock(&w->lock);
  return (ptrdiff_t)n;
}

/* The transport's clock: timeoutSeconds, shutdown and bookmarks. */
static void watch_tick(void *ctx) {
  watch_stream *w = ctx;
  time_t now = time(NULL);
  bool wake = false;
  pthread_mutex_lock(&w->lock);
  if (!w->ended && (atomic_load(&w->srv->stopping) || now >= w->deadline)) {
    w->ended = true;
    wake = true;
  } else if (!w->ended && w->bookmarks && now >= w->next_bookmark) {
    enqueue_bookmark(w);
    w->next_bookmark = now + 60;
    wake = true;
  }
  pthread_mutex_unlock(&w->lock);
  if (wake) http_stream_wake(w->stream);
}

static void watch_close(void *ctx) {
  watch_stream *w = ctx;
  if (w->subscribed) store_unwatch(w->srv->committed, w->watch_id);
  wq_destroy(&w->held, unref_event);
  filter_free(&w->filter);
  sb_free(&w->pending);
  free(w->gv);
  pthread_mutex_destroy(&w->lock);
  free(w);
}

/* The 200 whose body is w's events (resp->stream is w's). */
static void answer_with_stream(watch_stream *w, http_response *resp) {
  resp->status = 200;
  resp->content_type = w->protobuf ? SRV_PROTOBUF_WATCH : "application/json";
  resp->stream->read = watch_read;
  resp->stream->tick = watch_tick;
  resp->stream->close = watch_close;
  resp->stream->ctx = w;
}

/* A watch that is over before it starts: HTTP 200 and one ERROR event with
 * the Status (consumed) of the watch cache's refusal (apiserver's
 * newErrWatcher); the stream ends after it. */
static void refuse_watch(watch_stream *w, json_t *status, http_response *resp) {
  char *text = json_dumps(status, JSON_COMPACT);
  put_event(w, "ERROR", text, strlen(text));
  free(text);
  json_decref(status);
  w->ended = true;
  if (!resp->stream) resp->stream = xcalloc(1, sizeof *resp->stream);
  w->stream = resp->stream;
  answer_with_stream(w, resp);
}

/* errors.NewResourceExpired of the watch cache (apiserver storage/cacher
 * watch_cache_history.go): since is older than oldest, the resourceVersion
 * the kept events start after. */
static json_t *expired_status(uint64_t since, uint64_t oldest) {
  char msg[96];
  snprintf(msg, sizeof msg, "too old resource version: %llu (%llu)", (unsigned long long)since,
           (unsigned long long)oldest);
  return json_pack("{s:s,s:s,s:{},s:s,s:s,s:s,s:i}", "kind", "Status", "apiVersion", "v1", "metadata", "status",
                   "Failure", "message", msg, "reason", "Expired", "code", 410);
}

/* Follows the store from since on; false with the oldest resourceVersion
 * a watch may start from when since is older. */
static bool subscribe(watch_stream *w, uint64_t since, uint64_t *oldest) {
  /* oldest: the watch's id, or on STORE_GONE where the kept events start (store.h) */
  if (store_watch(w->srv->committed, since, on_store_event, w, oldest) != STORE_OK) return false;
  w->watch_id = *oldest;
  w->subscribed = true;
  return true;
}

void srv_watch(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  watch_stream *w = xcalloc(1, sizeof *w);
  w->srv = s;
  pthread_mutex_init(&w->lock, NULL);
  wq_init(&w->held, sizeof(store_event));
  w->kind = (api_kind)r->resource->api_kind;
  snprintf(w->namespace_, sizeof w->namespace_, "%s", r->namespace_);
  w->gv = srv_api_version(r->resource->group, r->version);
  w->wire = r->wire;
  w->protobuf = srv_accept_media(req->accept) == SRV_MEDIA_PROTOBUF;
  w->bookmarks = http_query_bool(req, "allowWatchBookmarks");
  w->route = *r;
  w->table = srv_wants_table(req->accept);
  strbuf include_err = STRBUF_INIT;
  if (w->table && !srv_include_object_parse(http_query_get(req, "includeObject"), &w->include, &include_err)) {
    srv_status_bad_request(resp, sb_str(&include_err));
    sb_free(&include_err);
    watch_close(w);
    return;
  }
  long timeout = 1800;
  const char *t = http_query_get(req, "timeoutSeconds");
  if (t && atol(t) > 0) timeout = atol(t);
  w->deadline = time(NULL) + timeout;
  w->next_bookmark = time(NULL) + 60;
  if (!parse_filter(req, r, &w->filter, resp)) {
    free(w->filter.labels.reqs);
    watch_close(w);
    return;
  }
  const char *rv_text = http_query_get(req, "resourceVersion");
  uint64_t since = rv_text && *rv_text ? strtoull(rv_text, NULL, 10) : 0;
  /* a streaming list (client-go's WatchList, KEP-3157): the current state,
   * then a bookmark that says the initial events are over. As
   * SetListOptionsDefaults has it, a watch from "" or "0" that does not say
   * (params.c refused resourceVersionMatch without sendInitialEvents) is
   * one; sendInitialEvents=false starts at its resourceVersion (from ""
   * or "0": the latest) with no initial events. */
  bool initial_events =
      http_query_get(req, "sendInitialEvents") ? http_query_bool(req, "sendInitialEvents") : since == 0;
  uint64_t current = store_revision(s->committed);
  if (initial_events && since > current) {
    /* the watch cache's refusal comes as the watch's one event */
    return refuse_watch(w, fresh_too_large_status(since, current), resp);
  }
  resp->stream = xcalloc(1, sizeof *resp->stream);
  w->stream = resp->stream; /* before the store's events can wake it */
  if (initial_events) {
    /* start with the current state as ADDED events */
    store_query q = query_for(r);
    store_list all = {0};
    store_list_query(s->committed, &q, &all);
    since = all.rv ? all.rv : store_revision(s->committed);
    w->shown_rv = since; /* not shared yet */
    w->holding = true;
    uint64_t oldest = 0;
    if (!subscribe(w, since, &oldest)) {
      store_list_free(&all);
      return refuse_watch(w, expired_status(since, oldest), resp);
    }
    for (size_t i = 0; i < all.n; i++)
      if (in_scope(w, all.items[i]->object)) enqueue_event(w, "ADDED", all.items[i], 0);
    if (initial_events && w->bookmarks) enqueue_bookmark_at(w, all.rv, true);
    store_list_free(&all);
    release_held(w);
  } else {
    if (since == 0) since = current;
    w->shown_rv = since; /* not shared yet */
    uint64_t oldest = 0;
    if (!subscribe(w, since, &oldest)) return refuse_watch(w, expired_status(since, oldest), resp);
  }
  /* the initial state and the replayed events are not held against it */
  pthread_mutex_lock(&w->lock);
  w->limit = w->pending.len - w->sent + WATCH_BUFFER_LIMIT;
  pthread_mutex_unlock(&w->lock);
  answer_with_stream(w, resp);
}
