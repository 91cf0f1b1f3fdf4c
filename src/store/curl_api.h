/* curl_api.h: libcurl, loaded when the etcd client first needs it rather
 * than when dra starts. libcurl and the libraries it brings (Kerberos,
 * LDAP, SSH, RTMP, OpenSSL) are most of what the dynamic loader binds at
 * start: 12 M instructions, more than all the rest of a small `dra
 * validate`, for a store only `dra serve --etcd-servers` and the etcd
 * tools use. */
#ifndef DRA_STORE_CURL_API_H
#define DRA_STORE_CURL_API_H
#include "util/strbuf.h"
#include <curl/curl.h>

/* The libcurl calls the etcd client makes (curl/curl.h, curl/multi.h). */
typedef struct curl_api {
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
  CURLcode (*easy_perform)(CURL *h);
  void (*easy_cleanup)(CURL *h);
  const char *(*easy_strerror)(CURLcode rc);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_add_handle)(CURLM *m, CURL *h);
  CURLMcode (*multi_remove_handle)(CURLM *m, CURL *h);
  CURLMcode (*multi_perform)(CURLM *m, int *running);
  CURLMsg *(*multi_info_read)(CURLM *m, int *left);
  CURLMcode (*multi_poll)(CURLM *m, struct curl_waitfd extra[], unsigned n_extra, int timeout_ms, int *ready);
  CURLMcode (*multi_cleanup)(CURLM *m);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
  void (*slist_free_all)(struct curl_slist *list);
} curl_api;

/* libcurl, loaded and globally initialized on the first call (thread-safe);
 * NULL, with the reason in err, when it cannot be loaded. */
const curl_api *curl_api_load(strbuf *err);

#endif
