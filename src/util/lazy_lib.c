/* lazy_lib.c: opening a library and finding its symbols on first use
 * (lazy_lib.h). */
#include "util/lazy_lib.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static _Noreturn void cannot_load(const char *soname, const char *why) {
  fprintf(stderr, "dra: cannot load %s: %s\n", soname, why);
  exit(1);
}

/* The library being opened by pthread_once, which passes no argument. */
static _Thread_local lazy_lib *opening;

static void open_library(void) {
  /* never closed: the libraries keep global state for the process's life */
  opening->handle = dlopen(opening->soname, RTLD_NOW | RTLD_LOCAL);
  if (!opening->handle) snprintf(opening->error, sizeof opening->error, "%s", dlerror());
}

void *lazy_lib_symbol(lazy_lib *lib, void *_Atomic *slot, const char *symbol) {
  void *found = atomic_load_explicit(slot, memory_order_acquire);
  if (found) return found;
  opening = lib;
  pthread_once(&lib->once, open_library);
  if (!lib->handle) cannot_load(lib->soname, lib->error);
  found = dlsym(lib->handle, symbol);
  if (!found) cannot_load(lib->soname, dlerror()); /* dlsym's failure is this thread's dlerror */
  atomic_store_explicit(slot, found, memory_order_release);
  return found;
}
