/* status.c: store outcomes as kube-apiserver names and words them
 * (apimachinery's pkg/api/errors). */
#include "store/store.h"
#include "util/strbuf.h"

const char *store_status_reason(store_status st) {
  switch (st) {
  case STORE_OK: return "";
  case STORE_NOT_FOUND: return "NotFound";
  case STORE_ALREADY_EXISTS: return "AlreadyExists";
  case STORE_CONFLICT: return "Conflict";
  case STORE_INVALID: return "Invalid";
  case STORE_GONE: return "Expired";
  case STORE_UNAVAILABLE: return "InternalError";
  }
  return "InternalError";
}

char *store_status_message(store_status st, const api_kind_info *info, const char *name) {
  if (!name) name = "";
  strbuf sb = STRBUF_INIT;
  strbuf resource = STRBUF_INIT;
  sb_puts(&resource, info->resource);
  if (info->group[0]) sb_printf(&resource, ".%s", info->group);
  switch (st) {
  case STORE_OK: break;
  case STORE_NOT_FOUND: sb_printf(&sb, "%s \"%s\" not found", sb_str(&resource), name); break;
  case STORE_ALREADY_EXISTS: sb_printf(&sb, "%s \"%s\" already exists", sb_str(&resource), name); break;
  case STORE_CONFLICT:
    sb_printf(&sb,
              "Operation cannot be fulfilled on %s \"%s\": the object has been modified; please apply your "
              "changes to the latest version and try again",
              sb_str(&resource), name);
    break;
  case STORE_INVALID: {
    char kind[128];
    sb_printf(&sb, "%s \"%s\" is invalid: %s", api_kind_qualified(info, kind, sizeof kind), name,
              !*name             ? "metadata.name: Required value: name or generateName is required"
              : info->namespaced ? "metadata.namespace: Required value"
                                 : "metadata.namespace: Forbidden: not allowed on this type");
    break;
  }
  case STORE_GONE: sb_puts(&sb, "too old resource version"); break;
  case STORE_UNAVAILABLE: sb_puts(&sb, "the store cannot write to disk"); break;
  }
  sb_free(&resource);
  return sb_detach(&sb);
}
