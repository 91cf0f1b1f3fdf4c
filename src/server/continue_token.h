/* continue_token.h: the opaque `continue` token of paginated lists: where
 * the next page starts and which state (resourceVersion) the pages show. */
#ifndef DRA_SRV_CONTINUE_TOKEN_H
#define DRA_SRV_CONTINUE_TOKEN_H
#include "api/object.h"
#include <stdbool.h>
#include <stdint.h>

/* The rv of a token that continues on the state current when each page
 * is read (kube-apiserver's continue token with resourceVersion -1,
 * handed out with 410 Expired when the state the list began with is gone). */
#define CONTINUE_AT_LATEST (-1)

/* A token resuming after the key "<namespace>/<name>" on the state at
 * rv (or CONTINUE_AT_LATEST). malloc'd. */
char *continue_token_make(int64_t rv, const char *start);
/* The key of last, as a token carries it. malloc'd. */
char *continue_token_key(const object_meta *last);
/* The key a page starts after (malloc'd into *start) and the state it
 * reads (*rv: > 0, or CONTINUE_AT_LATEST); false when the token is not one
 * this server issued. list.c hands the store its two parts, which the
 * store orders as the text "<namespace>/<name>". */
bool continue_token_parse(const char *token, char **start, int64_t *rv);

#endif
