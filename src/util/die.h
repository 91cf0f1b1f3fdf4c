/* die.h: the one place the program gives up (out of memory, broken invariant). */
#ifndef DRA_DIE_H
#define DRA_DIE_H
_Noreturn void die_oom(void);
_Noreturn void die_bug(const char *what);
void *xmalloc(unsigned long size);
void *xcalloc(unsigned long n, unsigned long size);
void *xrealloc(void *p, unsigned long size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, unsigned long n); /* at most n bytes of s, NUL-terminated */
#endif
