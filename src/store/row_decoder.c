/* row_decoder.c: see row_decoder.h. The caller's thread copies the rows
 * into batches of a ring; decoder threads claim the queued batches in
 * order, each decoding a whole batch with its own memo; the caller takes
 * the decoded batches in order, and waits for the oldest only when the
 * ring is full, so the rows in flight (their texts and objects) stay
 * within the ring. */
#include "store/row_decoder.h"
#include "api/codec.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* A batch ends at this many rows or bytes of text, whichever comes first. */
#define BATCH_ROWS 64
#define BATCH_BYTES (256 * 1024)
/* Batches in the ring per decoder thread. */
#define RING_PER_THREAD 4

typedef struct batch_row {
  decoded_row row;
  size_t key_at, text_at; /* in the batch's bytes; key_at SIZE_MAX: no key */
} batch_row;

typedef struct batch {
  strbuf bytes; /* the rows' keys and texts, each NUL-terminated */
  batch_row *rows;
  size_t n, cap;
  bool decoded; /* under the lock */
} batch;

struct row_decoder {
  row_decode_fn decode;
  row_take_fn take;
  void *user;
  unsigned nthreads;
  pthread_t *threads;
  tree_memo *memo; /* the caller's thread's, with no threads */
  batch *ring;
  size_t nring;
  /* Batch numbers, each counting up: [taken, queued) are queued and not
   * taken, [claimed, queued) not claimed by a thread yet; batch queued is
   * the one being filled. The slot of batch b is b % nring. */
  uint64_t taken, claimed, queued;
  pthread_mutex_t lock; /* guards claimed, queued, closing and the batches' decoded */
  pthread_cond_t work;  /* a batch was queued, or closing */
  pthread_cond_t done;  /* a batch was decoded */
  bool closing;
  bool refused; /* a take refused: the rows after it are freed untaken (the caller's thread's) */
};

unsigned row_decoder_threads(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus <= 1) return 0;
  return cpus > ROW_DECODER_MAX_THREADS ? ROW_DECODER_MAX_THREADS : (unsigned)cpus;
}

/* Decodes the row, and shares the object's JSON values here rather than
 * when it is stored, on the thread that takes the rows (store_obj_new);
 * its atoms are its own arena's, as a decoder interns them. */
static void decode_row(row_decoder *rd, decoded_row *row, tree_memo *memo) {
  row->why[0] = 0;
  api_object *o = rd->decode(row->key, row->text, row->len, memo, row->why, sizeof row->why);
  if (o) {
    codec_share_json(o->arena, o->info->desc, o->typed);
    o->shared = true;
    o->as_decoded = true;
  }
  row->obj = o;
}

/* Hands the row to the taker, or frees its object once a take refused. */
static void take_row(row_decoder *rd, decoded_row *row) {
  if (rd->refused) api_object_free(row->obj);
  else rd->refused = !rd->take(rd->user, row);
}

static void *decoder_main(void *arg) {
  row_decoder *rd = arg;
  tree_memo *memo = tree_memo_new();
  pthread_mutex_lock(&rd->lock);
  for (;;) {
    while (rd->claimed == rd->queued && !rd->closing) pthread_cond_wait(&rd->work, &rd->lock);
    if (rd->claimed == rd->queued) break;
    batch *b = &rd->ring[rd->claimed++ % rd->nring];
    pthread_mutex_unlock(&rd->lock);
    for (size_t i = 0; i < b->n; i++) {
      batch_row *r = &b->rows[i];
      r->row.key = r->key_at == SIZE_MAX ? NULL : b->bytes.buf + r->key_at;
      r->row.text = b->bytes.buf + r->text_at;
      decode_row(rd, &r->row, memo);
    }
    pthread_mutex_lock(&rd->lock);
    b->decoded = true;
    pthread_cond_signal(&rd->done);
  }
  pthread_mutex_unlock(&rd->lock);
  tree_memo_free(memo);
  return NULL;
}

row_decoder *row_decoder_new(unsigned threads, row_decode_fn decode, row_take_fn take, void *user) {
  row_decoder *rd = xcalloc(1, sizeof *rd);
  rd->decode = decode;
  rd->take = take;
  rd->user = user;
  if (!threads) {
    rd->memo = tree_memo_new();
    return rd;
  }
  rd->nthreads = threads;
  rd->nring = (size_t)threads * RING_PER_THREAD;
  rd->ring = xcalloc(rd->nring, sizeof *rd->ring);
  pthread_mutex_init(&rd->lock, NULL);
  pthread_cond_init(&rd->work, NULL);
  pthread_cond_init(&rd->done, NULL);
  rd->threads = xcalloc(threads, sizeof *rd->threads);
  for (unsigned i = 0; i < threads; i++)
    if (pthread_create(&rd->threads[i], NULL, decoder_main, rd)) die_bug("cannot start a thread to restore the store");
  return rd;
}

/* Takes the decoded batches from the oldest on; with wait, waits for the
 * oldest until none is left (until, without, only while the ring is full). */
static void take_decoded(row_decoder *rd, bool wait) {
  pthread_mutex_lock(&rd->lock);
  while (rd->taken < rd->queued) {
    batch *b = &rd->ring[rd->taken % rd->nring];
    if (!b->decoded) {
      if (!wait && rd->queued - rd->taken < rd->nring) break;
      pthread_cond_wait(&rd->done, &rd->lock);
      continue;
    }
    pthread_mutex_unlock(&rd->lock);
    for (size_t i = 0; i < b->n; i++) take_row(rd, &b->rows[i].row);
    b->n = 0;
    b->bytes.len = 0;
    pthread_mutex_lock(&rd->lock);
    b->decoded = false;
    rd->taken++;
  }
  pthread_mutex_unlock(&rd->lock);
}

/* Queues the batch being filled, if it has rows. */
static void queue_batch(row_decoder *rd) {
  if (!rd->ring[rd->queued % rd->nring].n) return;
  pthread_mutex_lock(&rd->lock);
  rd->queued++;
  pthread_cond_signal(&rd->work);
  pthread_mutex_unlock(&rd->lock);
}

static size_t add_text(strbuf *sb, const char *s, size_t n) {
  size_t at = sb->len;
  sb_add(sb, s, n);
  sb_putc(sb, 0);
  return at;
}

bool row_decoder_push(row_decoder *rd, const char *key, const char *text, size_t len, const uint64_t tags[4]) {
  if (rd->refused) return false;
  if (!rd->nthreads) {
    decoded_row row = {.key = key, .text = text, .len = len, .tags = {tags[0], tags[1], tags[2], tags[3]}};
    decode_row(rd, &row, rd->memo);
    take_row(rd, &row);
    return !rd->refused;
  }
  batch *b = &rd->ring[rd->queued % rd->nring];
  b->rows = xgrow(b->rows, b->n, &b->cap, sizeof *b->rows, BATCH_ROWS);
  batch_row *r = &b->rows[b->n++];
  *r = (batch_row){.row = {.len = len, .tags = {tags[0], tags[1], tags[2], tags[3]}}, .key_at = SIZE_MAX};
  if (key) r->key_at = add_text(&b->bytes, key, strlen(key));
  r->text_at = add_text(&b->bytes, text, len);
  if (b->n == BATCH_ROWS || b->bytes.len >= BATCH_BYTES) {
    queue_batch(rd);
    take_decoded(rd, false);
  }
  return !rd->refused;
}

bool row_decoder_finish(row_decoder *rd) {
  bool ok = !rd->refused;
  if (!rd->nthreads) {
    tree_memo_free(rd->memo);
    free(rd);
    return ok;
  }
  queue_batch(rd);
  take_decoded(rd, true);
  ok = !rd->refused;
  pthread_mutex_lock(&rd->lock);
  rd->closing = true;
  pthread_cond_broadcast(&rd->work);
  pthread_mutex_unlock(&rd->lock);
  for (unsigned i = 0; i < rd->nthreads; i++) pthread_join(rd->threads[i], NULL);
  for (size_t i = 0; i < rd->nring; i++) {
    sb_free(&rd->ring[i].bytes);
    free(rd->ring[i].rows);
  }
  pthread_mutex_destroy(&rd->lock);
  pthread_cond_destroy(&rd->work);
  pthread_cond_destroy(&rd->done);
  free(rd->ring);
  free(rd->threads);
  free(rd);
  return ok;
}
