/* warning.h: the Warning response headers kube-apiserver sends with a
 * request's warnings (apiserver's pkg/endpoints/filters/warning.go recorder,
 * apimachinery's pkg/util/net/http.go NewWarningHeader). */
#ifndef DRA_SRV_WARNING_H
#define DRA_SRV_WARNING_H
#include "server/http.h"

/* Adds text as one header value `299 - "<text>"`, the text quoted as Go's
 * strconv.Quote does, to resp->warnings (one value per line; quoting leaves
 * no newline inside). Empty text, text that is not UTF-8 and a text already
 * warned in this response are skipped, as upstream's recorder skips them. */
void srv_warn(http_response *resp, const char *text);

#endif
