/* cli_batch.h: the NDJSON --batch mode the commands share (dra allocate
 * --batch, dra validate --batch): one JSON case a line on stdin, one JSON
 * result a line on stdout in input order, each result carrying its case's
 * "id"; each case runs on its own context opened with the case's
 * "featureGates" onto dra's defaults. */
#ifndef DRA_CLI_BATCH_H
#define DRA_CLI_BATCH_H
#include "context/context.h"
#include "util/strbuf.h"
#include <jansson.h>

/* Answers one case c into res, which already holds the case's id. With
 * objects not NULL, the case's "objects" (an array of JSON objects) is not
 * in c (it is null there) but in objects: their text as written, a stream
 * of JSON documents on one line. */
typedef void (*cli_batch_fn)(void *user, json_t *c, const strbuf *objects, json_t *res);

/* Runs fn on every case of stdin. With split_objects, a case whose
 * "objects" is an array of objects hands fn their text (parsing them into
 * a tree and writing them out again for the loader was most of dra
 * allocate --batch's time); other cases, and every case without
 * split_objects, come whole in c. Returns the exit code: 0 when every
 * line was read, 2 on a line that is not a JSON object (reported on
 * stderr; the lines after it are not read). */
int cli_batch_run(cli_batch_fn fn, void *user, bool split_objects);

/* A context with the case's featureGates (an object of booleans) onto dra's
 * defaults; NULL, with res an error ("load: ..."), when they are bad. */
dra_ctx *cli_batch_open(json_t *c, json_t *res);

/* Makes res {"status": "error", "error": prefix + msg}, without msg's
 * trailing newlines. */
void cli_batch_error(json_t *res, const char *prefix, const char *msg);

#endif
