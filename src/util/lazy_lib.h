/* lazy_lib.h: a shared library that dra loads on the first call into it
 * rather than when the process starts.
 *
 * The dynamic loader binds every library named at link time before main:
 * libmicrohttpd with GnuTLS (and the seven libraries GnuTLS brings) and
 * libcrypto are 7.7 M of the 9.2 M instructions a program linked with all
 * of dra's libraries spends before main, for calls only `dra serve` and the
 * store's writers make. So dra is not linked with them. Instead, the calls
 * it makes are defined here under their own names (lazy_mhd.c,
 * lazy_crypto.c), each a jump through a pointer found with dlsym on its
 * first use; the headers' prototypes check every definition, and callers
 * stay as they are. (libcurl is loaded apart, by store/curl_api.c: the
 * etcd client reports a missing libcurl as an error of its own rather
 * than ending the process.) */
#ifndef DRA_UTIL_LAZY_LIB_H
#define DRA_UTIL_LAZY_LIB_H
#include <pthread.h>
#include <stdatomic.h>

typedef struct lazy_lib {
  const char *soname;
  pthread_once_t once;
  void *handle;
  char error[256]; /* why handle is NULL, once tried */
} lazy_lib;

#define LAZY_LIB_INIT(soname) {soname, PTHREAD_ONCE_INIT, NULL, {0}}

/* symbol in lib, found once and kept in *slot; lib is opened on the first
 * call (thread-safe). A library or symbol that cannot be found ends the
 * process with the reason, as the loader would have at start. */
void *lazy_lib_symbol(lazy_lib *lib, void *_Atomic *slot, const char *symbol);

/* Defines `ret name params` as the same call in lib; args names params. */
#define LAZY_LIB_CALL(lib, ret, name, params, args)                                                                  \
  ret name params {                                                                                                  \
    static void *_Atomic slot;                                                                                       \
    ret(*call) params = (ret(*) params)lazy_lib_symbol(&(lib), &slot, #name);                                        \
    return call args;                                                                                                \
  }

/* The same for a call that returns nothing. */
#define LAZY_LIB_CALL_VOID(lib, name, params, args)                                                                  \
  void name params {                                                                                                 \
    static void *_Atomic slot;                                                                                       \
    void(*call) params = (void(*) params)lazy_lib_symbol(&(lib), &slot, #name);                                      \
    call args;                                                                                                       \
  }

#endif
