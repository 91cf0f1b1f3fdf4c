/* die.h: the one place the program gives up (out of memory, broken invariant). */
#ifndef DRA_DIE_H
#define DRA_DIE_H
#include <stddef.h>
_Noreturn void die_oom(void);
_Noreturn void die_bug(const char *what);
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n); /* at most n bytes of s, NUL-terminated */
/* Room for one more item in a growable array holding n: when n == *cap,
 * *cap doubles (starting at first) and the array is reallocated. Returns
 * the array, so: a = xgrow(a, n, &cap, sizeof *a, 16); a[n++] = x; */
void *xgrow(void *items, size_t n, size_t *cap, size_t item_size, size_t first);
#endif
