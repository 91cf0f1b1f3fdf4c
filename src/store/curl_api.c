/* curl_api.c: libcurl's calls found with dlopen/dlsym on first use
 * (curl_api.h). */
#include "store/curl_api.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* libcurl's SONAME since 7.16 (libcurl4 and libcurl4-openssl-dev on Debian). */
#define CURL_LIBRARY "libcurl.so.4"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static curl_api api;
static const curl_api *loaded;
static char load_error[256];

/* Each slot of api, the symbol it holds. */
static const struct {
  size_t offset;
  const char *symbol;
} symbols[] = {
    {offsetof(curl_api, easy_init), "curl_easy_init"},
    {offsetof(curl_api, easy_setopt), "curl_easy_setopt"},
    {offsetof(curl_api, easy_getinfo), "curl_easy_getinfo"},
    {offsetof(curl_api, easy_perform), "curl_easy_perform"},
    {offsetof(curl_api, easy_cleanup), "curl_easy_cleanup"},
    {offsetof(curl_api, easy_strerror), "curl_easy_strerror"},
    {offsetof(curl_api, multi_init), "curl_multi_init"},
    {offsetof(curl_api, multi_add_handle), "curl_multi_add_handle"},
    {offsetof(curl_api, multi_remove_handle), "curl_multi_remove_handle"},
    {offsetof(curl_api, multi_perform), "curl_multi_perform"},
    {offsetof(curl_api, multi_info_read), "curl_multi_info_read"},
    {offsetof(curl_api, multi_poll), "curl_multi_poll"},
    {offsetof(curl_api, multi_cleanup), "curl_multi_cleanup"},
    {offsetof(curl_api, slist_append), "curl_slist_append"},
    {offsetof(curl_api, slist_free_all), "curl_slist_free_all"},
};

static void load(void) {
  /* never closed: libcurl's global state lives as long as the process */
  void *lib = dlopen(CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(load_error, sizeof load_error, "cannot load %s: %s", CURL_LIBRARY, dlerror());
    return;
  }
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    void *fn = dlsym(lib, symbols[i].symbol);
    if (!fn) {
      snprintf(load_error, sizeof load_error, "%s: no %s", CURL_LIBRARY, symbols[i].symbol);
      return;
    }
    memcpy((char *)&api + symbols[i].offset, &fn, sizeof fn);
  }
  CURLcode (*global_init)(long) = NULL;
  void *init = dlsym(lib, "curl_global_init");
  memcpy(&global_init, &init, sizeof init);
  if (!global_init || global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(load_error, sizeof load_error, "%s: curl_global_init failed", CURL_LIBRARY);
    return;
  }
  loaded = &api;
}

const curl_api *curl_api_load(strbuf *err) {
  pthread_once(&load_once, load);
  if (!loaded) sb_puts(err, load_error);
  return loaded;
}
