/* openapi_v2_pb.c: see openapi_v2_pb.h. Field numbers are those of gnostic's
 * OpenAPIv2.proto. Maps (definitions, properties, vendor extensions) are
 * repeated Named* pairs; a vendor extension's value is an Any whose yaml
 * field holds the value as text (JSON, which YAML parsers read), as
 * kube-openapi's VendorExtensionToMap expects. A key this encoder has no
 * field for is a programming error in the document builder: it dies rather
 * than silently serve a schema that validates differently. */
#include "server/openapi_v2_pb.h"
#include "server/protobuf.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* openapi.v2 messages and fields used here. */
enum {
  DOCUMENT_SWAGGER = 1, DOCUMENT_INFO = 2, DOCUMENT_PATHS = 8, DOCUMENT_DEFINITIONS = 9, DOCUMENT_VENDOR_EXTENSION = 16,
  INFO_TITLE = 1, INFO_VERSION = 2, INFO_DESCRIPTION = 3, INFO_VENDOR_EXTENSION = 7,
  PATHS_VENDOR_EXTENSION = 1,
  NAMED_NAME = 1, NAMED_VALUE = 2,  /* NamedAny, NamedSchema */
  MAP_ADDITIONAL_PROPERTIES = 1,    /* Definitions, Properties */
  ANY_YAML = 2,
  ADDITIONAL_PROPERTIES_SCHEMA = 1, ADDITIONAL_PROPERTIES_BOOLEAN = 2,
  STRING_LIST_VALUE = 1,            /* TypeItem */
  ITEMS_SCHEMA = 1,                 /* ItemsItem */
  SCHEMA_REF = 1, SCHEMA_FORMAT = 2, SCHEMA_TITLE = 3, SCHEMA_DESCRIPTION = 4, SCHEMA_DEFAULT = 5,
  SCHEMA_REQUIRED = 19, SCHEMA_ENUM = 20, SCHEMA_ADDITIONAL_PROPERTIES = 21, SCHEMA_TYPE = 22, SCHEMA_ITEMS = 23,
  SCHEMA_ALL_OF = 24, SCHEMA_PROPERTIES = 25, SCHEMA_VENDOR_EXTENSION = 31,
};

static int compare_keys(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The keys of obj, sorted; caller frees the array (not the keys). */
static const char **sorted_keys(const json_t *obj, size_t *n) {
  *n = json_object_size(obj);
  const char **keys = xmalloc((*n ? *n : 1) * sizeof *keys);
  size_t i = 0;
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)obj, key, value) keys[i++] = key;
  qsort(keys, *n, sizeof *keys, compare_keys);
  return keys;
}

/* The document builder produced something this encoder has no field for. */
static _Noreturn void unencodable(const char *what, const char *key) {
  char message[300];
  snprintf(message, sizeof message, "openapi v2 protobuf: %s \"%s\"", what, key);
  die_bug(message);
}

static bool is_extension(const char *key) { return !strncmp(key, "x-", 2); }

static const char *string_of(const json_t *v, const char *key) {
  if (!json_is_string(v)) unencodable("not a string:", key);
  return json_string_value(v);
}

/* An Any message: the value as YAML text. */
static void encode_any(strbuf *out, unsigned field, const json_t *v) {
  char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_SORT_KEYS);
  size_t m = pb_open(out, field);
  pb_string(out, ANY_YAML, text);
  pb_close(out, m);
  free(text);
}

static void encode_extension(strbuf *out, unsigned field, const char *name, const json_t *v) {
  size_t m = pb_open(out, field);
  pb_string(out, NAMED_NAME, name);
  encode_any(out, NAMED_VALUE, v);
  pb_close(out, m);
}

static void encode_string_list(strbuf *out, unsigned field, const char *key, const json_t *v) {
  if (json_is_string(v)) {
    pb_string(out, field, json_string_value(v));
    return;
  }
  if (!json_is_array(v)) unencodable("neither a string nor an array:", key);
  size_t i;
  json_t *s;
  json_array_foreach(v, i, s) pb_string(out, field, string_of(s, key));
}

static void encode_schema(strbuf *out, unsigned field, const json_t *schema);

/* A map of schemas (definitions, properties) as repeated NamedSchema. */
static void encode_schema_map(strbuf *out, unsigned field, const json_t *map) {
  size_t m = pb_open(out, field), n;
  const char **keys = sorted_keys(map, &n);
  for (size_t i = 0; i < n; i++) {
    size_t named = pb_open(out, MAP_ADDITIONAL_PROPERTIES);
    pb_string(out, NAMED_NAME, keys[i]);
    encode_schema(out, NAMED_VALUE, json_object_get(map, keys[i]));
    pb_close(out, named);
  }
  free(keys);
  pb_close(out, m);
}

static void encode_schema_field(strbuf *out, const char *key, const json_t *v) {
  static const struct {
    const char *key;
    unsigned field;
  } strings[] = {{"$ref", SCHEMA_REF}, {"format", SCHEMA_FORMAT}, {"title", SCHEMA_TITLE},
                 {"description", SCHEMA_DESCRIPTION}};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
    if (!strcmp(key, strings[i].key)) {
      pb_string(out, strings[i].field, string_of(v, key));
      return;
    }
  size_t m, i;
  json_t *elem;
  if (is_extension(key)) encode_extension(out, SCHEMA_VENDOR_EXTENSION, key, v);
  else if (!strcmp(key, "default")) encode_any(out, SCHEMA_DEFAULT, v);
  else if (!strcmp(key, "required")) encode_string_list(out, SCHEMA_REQUIRED, key, v);
  else if (!strcmp(key, "enum") && json_is_array(v)) json_array_foreach(v, i, elem) encode_any(out, SCHEMA_ENUM, elem);
  else if (!strcmp(key, "type")) {
    m = pb_open(out, SCHEMA_TYPE);
    encode_string_list(out, STRING_LIST_VALUE, key, v);
    pb_close(out, m);
  } else if (!strcmp(key, "items")) {
    m = pb_open(out, SCHEMA_ITEMS);
    if (json_is_array(v)) json_array_foreach(v, i, elem) encode_schema(out, ITEMS_SCHEMA, elem);
    else encode_schema(out, ITEMS_SCHEMA, v);
    pb_close(out, m);
  } else if (!strcmp(key, "allOf") && json_is_array(v)) {
    json_array_foreach(v, i, elem) encode_schema(out, SCHEMA_ALL_OF, elem);
  } else if (!strcmp(key, "properties") && json_is_object(v)) {
    encode_schema_map(out, SCHEMA_PROPERTIES, v);
  } else if (!strcmp(key, "additionalProperties")) {
    m = pb_open(out, SCHEMA_ADDITIONAL_PROPERTIES);
    if (json_is_boolean(v)) pb_bool(out, ADDITIONAL_PROPERTIES_BOOLEAN, json_is_true(v));
    else encode_schema(out, ADDITIONAL_PROPERTIES_SCHEMA, v);
    pb_close(out, m);
  } else unencodable("no Schema field for", key);
}

static void encode_schema(strbuf *out, unsigned field, const json_t *schema) {
  if (!json_is_object(schema)) unencodable("a schema is not an object, in", "definitions");
  size_t m = pb_open(out, field), n;
  const char **keys = sorted_keys(schema, &n);
  for (size_t i = 0; i < n; i++) encode_schema_field(out, keys[i], json_object_get(schema, keys[i]));
  free(keys);
  pb_close(out, m);
}

static void encode_info(strbuf *out, const json_t *info) {
  size_t m = pb_open(out, DOCUMENT_INFO), n;
  const char **keys = sorted_keys(info, &n);
  for (size_t i = 0; i < n; i++) {
    const json_t *v = json_object_get(info, keys[i]);
    if (!strcmp(keys[i], "title")) pb_string(out, INFO_TITLE, string_of(v, keys[i]));
    else if (!strcmp(keys[i], "version")) pb_string(out, INFO_VERSION, string_of(v, keys[i]));
    else if (!strcmp(keys[i], "description")) pb_string(out, INFO_DESCRIPTION, string_of(v, keys[i]));
    else if (is_extension(keys[i])) encode_extension(out, INFO_VENDOR_EXTENSION, keys[i], v);
    else unencodable("no Info field for", keys[i]);
  }
  free(keys);
  pb_close(out, m);
}

/* Only vendor extensions: operations are not part of the v2 document. */
static void encode_paths(strbuf *out, const json_t *paths) {
  size_t m = pb_open(out, DOCUMENT_PATHS), n;
  const char **keys = sorted_keys(paths, &n);
  for (size_t i = 0; i < n; i++) {
    if (!is_extension(keys[i])) unencodable("path items are not encoded:", keys[i]);
    encode_extension(out, PATHS_VENDOR_EXTENSION, keys[i], json_object_get(paths, keys[i]));
  }
  free(keys);
  pb_close(out, m);
}

bool openapi_v2_pb_accepted(const char *accept) {
  return accept && strstr(accept, "application/com.github.proto-openapi.spec.v2");
}

void openapi_v2_pb_encode(const json_t *doc, strbuf *out) {
  size_t n;
  const char **keys = sorted_keys(doc, &n);
  for (size_t i = 0; i < n; i++) {
    const json_t *v = json_object_get(doc, keys[i]);
    if (!strcmp(keys[i], "swagger")) pb_string(out, DOCUMENT_SWAGGER, string_of(v, keys[i]));
    else if (!strcmp(keys[i], "info")) encode_info(out, v);
    else if (!strcmp(keys[i], "paths")) encode_paths(out, v);
    else if (!strcmp(keys[i], "definitions")) encode_schema_map(out, DOCUMENT_DEFINITIONS, v);
    else if (is_extension(keys[i])) encode_extension(out, DOCUMENT_VENDOR_EXTENSION, keys[i], v);
    else unencodable("no Document field for", keys[i]);
  }
  free(keys);
}

void openapi_v2_pb_response(http_response *resp, json_t *doc) {
  openapi_v2_pb_encode(doc, &resp->body);
  json_decref(doc);
  resp->status = 200;
  resp->content_type = OPENAPI_V2_PB_CONTENT_TYPE;
}
