/* openapi_v2_pb.c: see openapi_v2_pb.h. Field numbers are those of gnostic's
 * OpenAPIv2.proto. Maps (definitions, properties, vendor extensions) are
 * repeated Named* pairs; a vendor extension's value is an Any whose yaml
 * field holds the value as text (JSON, which YAML parsers read), as
 * kube-openapi's VendorExtensionToMap expects. A key this encoder has no
 * field for is a programming error in the document builder: it dies rather
 * than silently serve a schema that validates differently. */
#include "server/openapi_v2_pb.h"
#include "codec/pb_wire.h"
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

typedef void member_encoder(strbuf *out, const char *key, const json_t *v);

/* Encodes each member of obj with fn, in key order. */
static void each_sorted(strbuf *out, const json_t *obj, member_encoder *fn) {
  size_t n = json_object_size(obj);
  const char **keys = xmalloc((n ? n : 1) * sizeof *keys);
  size_t i = 0;
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)obj, key, value) keys[i++] = key;
  if (n) qsort(keys, n, sizeof *keys, compare_keys);
  for (i = 0; i < n; i++) fn(out, keys[i], json_object_get(obj, keys[i]));
  free(keys);
}

/* A message in field whose fields are obj's members, each encoded by fn. */
static void encode_message(strbuf *out, unsigned field, const json_t *obj, member_encoder *fn) {
  size_t m = pb_open(out, field);
  each_sorted(out, obj, fn);
  pb_close(out, m);
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

static void encode_named_schema(strbuf *out, const char *key, const json_t *v) {
  size_t named = pb_open(out, MAP_ADDITIONAL_PROPERTIES);
  pb_string(out, NAMED_NAME, key);
  encode_schema(out, NAMED_VALUE, v);
  pb_close(out, named);
}

/* A map of schemas (definitions, properties) as repeated NamedSchema. */
static void encode_schema_map(strbuf *out, unsigned field, const json_t *map) {
  encode_message(out, field, map, encode_named_schema);
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
  encode_message(out, field, schema, encode_schema_field);
}

static void encode_info_field(strbuf *out, const char *key, const json_t *v) {
  if (!strcmp(key, "title")) pb_string(out, INFO_TITLE, string_of(v, key));
  else if (!strcmp(key, "version")) pb_string(out, INFO_VERSION, string_of(v, key));
  else if (!strcmp(key, "description")) pb_string(out, INFO_DESCRIPTION, string_of(v, key));
  else if (is_extension(key)) encode_extension(out, INFO_VENDOR_EXTENSION, key, v);
  else unencodable("no Info field for", key);
}

/* Only vendor extensions: operations are not part of the v2 document. */
static void encode_paths_field(strbuf *out, const char *key, const json_t *v) {
  if (!is_extension(key)) unencodable("path items are not encoded:", key);
  encode_extension(out, PATHS_VENDOR_EXTENSION, key, v);
}

bool openapi_v2_pb_accepted(const char *accept) {
  return accept && strstr(accept, "application/com.github.proto-openapi.spec.v2");
}

static void encode_document_field(strbuf *out, const char *key, const json_t *v) {
  if (!strcmp(key, "swagger")) pb_string(out, DOCUMENT_SWAGGER, string_of(v, key));
  else if (!strcmp(key, "info")) encode_message(out, DOCUMENT_INFO, v, encode_info_field);
  else if (!strcmp(key, "paths")) encode_message(out, DOCUMENT_PATHS, v, encode_paths_field);
  else if (!strcmp(key, "definitions")) encode_schema_map(out, DOCUMENT_DEFINITIONS, v);
  else if (is_extension(key)) encode_extension(out, DOCUMENT_VENDOR_EXTENSION, key, v);
  else unencodable("no Document field for", key);
}

void openapi_v2_pb_encode(const json_t *doc, strbuf *out) { each_sorted(out, doc, encode_document_field); }

void openapi_v2_pb_response(http_response *resp, json_t *doc) {
  openapi_v2_pb_encode(doc, &resp->body);
  json_decref(doc);
  resp->status = 200;
  resp->content_type = OPENAPI_V2_PB_CONTENT_TYPE;
}
