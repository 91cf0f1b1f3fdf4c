/* patch.c: see patch.h. */
#include "server/patch.h"
#include "api/codec.h"
#include "server/status.h"
#include "server/warning.h"
#include <stdlib.h>
#include <string.h>

#define PATCH_MAX_DEPTH 100

bool patch_type_from_content_type(const char *ct, patch_type *out) {
  if (!ct) return false;
  if (!strncmp(ct, "application/merge-patch+json", 28)) *out = PATCH_MERGE;
  else if (!strncmp(ct, "application/json-patch+json", 27)) *out = PATCH_JSON;
  else if (!strncmp(ct, "application/strategic-merge-patch+json", 38)) *out = PATCH_STRATEGIC;
  else return false;
  return true;
}

/* ---- RFC 7386 merge patch, and its strategic extension ---- */

/* The key that identifies list items of a strategically merged list, by the
 * list's field name; NULL: the list is replaced whole. */
static const char *merge_key(const char *field) {
  static const char *const by_name[] = {"containers", "initContainers", "ephemeralContainers", "env", "volumes",
                                        "resourceClaims", "resourceClaimStatuses", "imagePullSecrets", NULL};
  for (size_t i = 0; by_name[i]; i++)
    if (!strcmp(field, by_name[i])) return "name";
  if (!strcmp(field, "conditions") || !strcmp(field, "addresses")) return "type";
  if (!strcmp(field, "ownerReferences")) return "uid";
  if (!strcmp(field, "volumeMounts")) return "mountPath";
  if (!strcmp(field, "ports")) return "containerPort";
  return NULL;
}

static json_t *merge(const json_t *target, const json_t *patch, bool strategic, int depth, strbuf *err);

static json_t *find_by_key(json_t *list, const char *key, const json_t *value) {
  size_t i;
  json_t *item;
  json_array_foreach(list, i, item) if (json_equal(json_object_get(item, key), value)) return item;
  return NULL;
}

static json_t *merge_list(const json_t *target, const json_t *patch, const char *key, int depth, strbuf *err) {
  json_t *out = json_is_array(target) ? json_deep_copy(target) : json_array();
  size_t i;
  json_t *item;
  json_array_foreach(patch, i, item) {
    const json_t *id = json_is_object(item) ? json_object_get(item, key) : NULL;
    const char *directive = json_string_value(json_object_get(item, "$patch"));
    if (!id) { /* no key: append as is */
      json_array_append(out, item);
      continue;
    }
    json_t *existing = find_by_key(out, key, id);
    if (directive && !strcmp(directive, "delete")) {
      if (existing) {
        size_t j;
        json_t *e;
        json_array_foreach(out, j, e) if (e == existing) {
          json_array_remove(out, j);
          break;
        }
      }
      continue;
    }
    if (existing) {
      json_t *merged = merge(existing, item, true, depth + 1, err);
      if (!merged) {
        json_decref(out);
        return NULL;
      }
      size_t j;
      json_t *e;
      json_array_foreach(out, j, e) if (e == existing) {
        json_array_set_new(out, j, merged);
        break;
      }
    } else {
      json_t *fresh = merge(NULL, item, true, depth + 1, err);
      if (!fresh) {
        json_decref(out);
        return NULL;
      }
      json_array_append_new(out, fresh);
    }
  }
  return out;
}

static json_t *merge(const json_t *target, const json_t *patch, bool strategic, int depth, strbuf *err) {
  if (depth > PATCH_MAX_DEPTH) {
    sb_puts(err, "patch nesting is too deep");
    return NULL;
  }
  if (!json_is_object(patch)) return json_deep_copy(patch);
  const char *directive = strategic ? json_string_value(json_object_get(patch, "$patch")) : NULL;
  json_t *out = json_is_object(target) && !(directive && !strcmp(directive, "replace")) ? json_deep_copy(target)
                                                                                         : json_object();
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)patch, key, value) {
    if (strategic && key[0] == '$') continue; /* $patch, $retainKeys, $setElementOrder/...: ordering hints */
    if (json_is_null(value)) {
      json_object_del(out, key);
      continue;
    }
    json_t *merged;
    const char *mk = strategic && json_is_array(value) ? merge_key(key) : NULL;
    if (mk) merged = merge_list(json_object_get(out, key), value, mk, depth, err);
    else merged = merge(json_object_get(out, key), value, strategic, depth + 1, err);
    if (!merged) {
      json_decref(out);
      return NULL;
    }
    json_object_set_new(out, key, merged);
  }
  return out;
}

/* ---- RFC 6902 JSON patch ---- */

/* Resolves a JSON pointer to (parent container, last token). */
static bool pointer_parent(json_t *doc, const char *ptr, json_t **parent, char **last, strbuf *err) {
  if (!ptr || (*ptr && *ptr != '/')) {
    sb_printf(err, "invalid JSON pointer \"%s\"", ptr ? ptr : "");
    return false;
  }
  json_t *cur = doc;
  char *copy = strdup(ptr);
  char *tok = copy + 1, *next;
  *parent = NULL;
  *last = NULL;
  if (!*ptr) {
    free(copy);
    sb_puts(err, "the whole document can't be patched");
    return false;
  }
  for (;;) {
    next = strchr(tok, '/');
    if (next) *next = 0;
    /* unescape ~1 -> / and ~0 -> ~ */
    char *w = tok;
    for (char *r = tok; *r; r++) {
      if (r[0] == '~' && r[1] == '1') *w++ = '/', r++;
      else if (r[0] == '~' && r[1] == '0') *w++ = '~', r++;
      else *w++ = *r;
    }
    *w = 0;
    if (!next) {
      *parent = cur;
      *last = strdup(tok);
      free(copy);
      return true;
    }
    json_t *child = NULL;
    if (json_is_object(cur)) child = json_object_get(cur, tok);
    else if (json_is_array(cur)) {
      char *end;
      long idx = strtol(tok, &end, 10);
      if (!*end && idx >= 0) child = json_array_get(cur, (size_t)idx);
    }
    if (!child) {
      sb_printf(err, "jsonpatch: path %s does not exist", ptr);
      free(copy);
      return false;
    }
    cur = child;
    tok = next + 1;
  }
}

static json_t *pointer_get(json_t *parent, const char *last) {
  if (json_is_object(parent)) return json_object_get(parent, last);
  if (json_is_array(parent)) {
    char *end;
    long idx = strtol(last, &end, 10);
    if (!*end && idx >= 0) return json_array_get(parent, (size_t)idx);
  }
  return NULL;
}

static bool pointer_remove(json_t *parent, const char *last) {
  if (json_is_object(parent)) return json_object_del(parent, last) == 0;
  char *end;
  long idx = strtol(last, &end, 10);
  return json_is_array(parent) && !*end && idx >= 0 && json_array_remove(parent, (size_t)idx) == 0;
}

static bool pointer_add(json_t *parent, const char *last, json_t *value, bool replace) {
  if (json_is_object(parent)) {
    if (replace && !json_object_get(parent, last)) return false;
    return json_object_set(parent, last, value) == 0;
  }
  if (!json_is_array(parent)) return false;
  if (!strcmp(last, "-") && !replace) return json_array_append(parent, value) == 0;
  char *end;
  long idx = strtol(last, &end, 10);
  if (*end || idx < 0) return false;
  if (replace) return json_array_set(parent, (size_t)idx, value) == 0;
  return (size_t)idx <= json_array_size(parent) && json_array_insert(parent, (size_t)idx, value) == 0;
}

static bool apply_op(json_t *doc, const json_t *op, strbuf *err) {
  const char *name = json_string_value(json_object_get(op, "op"));
  const char *path = json_string_value(json_object_get(op, "path"));
  if (!name || !path) {
    sb_puts(err, "jsonpatch: operation needs \"op\" and \"path\"");
    return false;
  }
  json_t *parent;
  char *last;
  if (!pointer_parent(doc, path, &parent, &last, err)) return false;
  bool ok = false;
  json_t *value = json_object_get(op, "value");
  if (!strcmp(name, "add") || !strcmp(name, "replace")) {
    ok = value && pointer_add(parent, last, value, !strcmp(name, "replace"));
  } else if (!strcmp(name, "remove")) {
    ok = pointer_remove(parent, last);
  } else if (!strcmp(name, "test")) {
    json_t *cur = pointer_get(parent, last);
    ok = cur && value && json_equal(cur, value);
    if (!ok) {
      sb_printf(err, "testing value %s failed", path);
      free(last);
      return false;
    }
  } else if (!strcmp(name, "move") || !strcmp(name, "copy")) {
    const char *from = json_string_value(json_object_get(op, "from"));
    json_t *fparent;
    char *flast;
    if (from && pointer_parent(doc, from, &fparent, &flast, err)) {
      json_t *v = pointer_get(fparent, flast);
      if (v) {
        json_t *copy = json_deep_copy(v);
        ok = (!strcmp(name, "copy") || pointer_remove(fparent, flast)) && pointer_add(parent, last, copy, false);
        json_decref(copy);
      }
      free(flast);
    }
  } else {
    sb_printf(err, "jsonpatch: unexpected operation \"%s\"", name);
    free(last);
    return false;
  }
  if (!ok && !err->len) sb_printf(err, "jsonpatch %s operation does not apply: doc is missing path: \"%s\"", name, path);
  free(last);
  return ok;
}

/* The checks of PatchResource and the patchers before a patch applies:
 * its text is JSON, a JSON patch a list of objects, a merge patch an
 * object. null is no JSON patch operation and no strategic change; as a
 * merge patch it is refused. */
static bool readable(patch_type type, const json_t *patch, strbuf *err) {
  if (json_is_null(patch)) {
    if (type == PATCH_MERGE) sb_puts(err, "Invalid JSON Patch");
    return type != PATCH_MERGE;
  }
  if (type == PATCH_JSON) {
    if (!json_is_array(patch)) {
      sb_printf(err, "error decoding patch: json: cannot unmarshal %s into Go value of type []handlers.jsonPatchOp",
                codec_json_type_word(patch));
      return false;
    }
    size_t i;
    json_t *op;
    json_array_foreach(patch, i, op) if (!json_is_object(op) && !json_is_null(op)) {
      sb_printf(err, "error decoding patch: json: cannot unmarshal %s into Go value of type handlers.jsonPatchOp",
                codec_json_type_word(op));
      return false;
    }
    return true;
  }
  if (json_is_object(patch)) return true;
  sb_printf(err, "%sjson: cannot unmarshal %s into Go value of type map[string]interface {}",
            type == PATCH_MERGE ? "error decoding patch: " : "", codec_json_type_word(patch));
  return false;
}

json_t *patch_apply(patch_type type, const json_t *doc, const char *text, size_t len, strbuf *err,
                    patch_failure *why) {
  *why = PATCH_UNREADABLE;
  json_t *patch = json_loadb(text, len, JSON_DECODE_ANY, NULL);
  if (!patch) {
    sb_puts(err, "invalid JSON patch");
    return NULL;
  }
  json_t *out = NULL;
  if (!readable(type, patch, err)) {
    /* answered as unreadable */
  } else if (json_is_null(patch)) {
    out = json_deep_copy(doc);
  } else if (type == PATCH_JSON) {
    *why = PATCH_FAILED_OP;
    out = json_deep_copy(doc);
    size_t i;
    json_t *op;
    json_array_foreach(patch, i, op) if (!apply_op(out, op, err)) {
      json_decref(out);
      out = NULL;
      break;
    }
  } else {
    *why = PATCH_MERGE_REFUSED;
    out = merge(doc, patch, type == PATCH_STRATEGIC, 0, err);
  }
  json_decref(patch);
  return out;
}

void patch_answer_failure(http_response *resp, patch_failure why, const char *message) {
  switch (why) {
  case PATCH_UNREADABLE: srv_status_bad_request(resp, message); return;
  case PATCH_FAILED_OP:
    srv_warn(resp, message);
    srv_status(resp, 422, "Invalid", "the server rejected our request due to an error in our request", json_object());
    return;
  case PATCH_MERGE_REFUSED: srv_status(resp, 422, "Invalid", message, NULL); return;
  }
}
