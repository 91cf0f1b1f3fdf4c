/* row_decoder.h: decoding the rows a durable backend restores on start
 * (each an object's JSON) on several threads while the caller reads the
 * next rows, the objects handed back in the order the rows came: the store
 * restored is the one decoding them one after another gives. */
#ifndef DRA_STORE_ROW_DECODER_H
#define DRA_STORE_ROW_DECODER_H
#include "api/object.h"
#include "api/tree_memo.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decoder threads at most: the caller's thread, which reads the rows and
 * installs the objects, keeps about this many busy; more would only add
 * memos (each thread has its own). */
#define ROW_DECODER_MAX_THREADS 4

/* A row as handed back: its key (or NULL) and text as pushed, the
 * caller's tags, and the object decoded (the taker owns it; its JSON
 * values shared and its atoms its own arena's, so storing it walks it for
 * neither: api_object.shared, as_decoded), or NULL with why said. */
typedef struct decoded_row {
  const char *key;
  const char *text;
  size_t len;
  uint64_t tags[4];
  api_object *obj;
  char why[96];
} decoded_row;

/* Decodes a row; memo is the thread's own, for the whole restore. NULL,
 * with why written, when the row cannot be decoded. */
typedef api_object *(*row_decode_fn)(const char *key, const char *text, size_t len, tree_memo *memo, char *why,
                                     size_t why_len);
/* Takes a decoded row, in the order pushed; false stops the restore (no
 * more rows are taken). */
typedef bool (*row_take_fn)(void *user, decoded_row *row);

typedef struct row_decoder row_decoder;

/* A decoder on threads decoder threads besides the caller's; 0 decodes
 * each row on the caller's thread as it is pushed (and takes it at once). */
row_decoder *row_decoder_new(unsigned threads, row_decode_fn decode, row_take_fn take, void *user);
/* The threads for a restore on this machine: one per online CPU, at most
 * ROW_DECODER_MAX_THREADS; 0 on a machine of one CPU. */
unsigned row_decoder_threads(void);
/* Queues a row (key and text are copied; key may be NULL); takes the rows
 * decoded by now before it. False once a take refused. */
bool row_decoder_push(row_decoder *rd, const char *key, const char *text, size_t len, const uint64_t tags[4]);
/* Takes the rest, stops the threads and frees rd; whether every take
 * accepted its row. */
bool row_decoder_finish(row_decoder *rd);

#endif
