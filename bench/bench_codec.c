/* bench_codec.c: the codec's steps on one input, each in a function of its
 * own so that one callgrind run (bench/codec.sh) counts them side by side:
 * decoding YAML and JSON into typed objects straight from the text
 * (objects_load_direct) and through the document tree (objects_load_tree),
 * writing them as kubectl -o json does straight from the structs
 * (codec_encode_json) and through the tree, next to what libyaml and
 * jansson alone cost on the same text (parsing every event; scanning every
 * token, yaml_parser_scan without the parser; json_loadb of
 * every document; json_dumps of every tree with a 4-space indent), and
 * dra's own YAML reader alone (codec/yaml_fast.c, every token). Before
 * each step the heap is trimmed, so no step pays for tidying up the frees
 * of the one before it (as a process doing only that step would not). The JSON
 * input is the YAML file's documents as kubectl -o json prints them.
 * usage: bench_codec FILE.yaml (prints the byte counts the figures divide by) */
#include "api/codec.h"
#include "codec/doc.h"
#include "codec/doc_tokens.h"
#include "load/objects.h"
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MEASURE __attribute__((noinline))

static void parser_on(yaml_parser_t *p, const strbuf *text) {
  yaml_parser_initialize(p);
  yaml_parser_set_input_string(p, (const unsigned char *)text->buf, text->len);
}

MEASURE size_t measure_libyaml_events(const strbuf *text) {
  yaml_parser_t p;
  yaml_event_t ev;
  size_t n = 0;
  parser_on(&p, text);
  while (yaml_parser_parse(&p, &ev)) {
    yaml_event_type_t type = ev.type;
    yaml_event_delete(&ev);
    n++;
    if (type == YAML_STREAM_END_EVENT) break;
  }
  yaml_parser_delete(&p);
  return n;
}

/* libyaml's scanner alone (yaml_parser_scan): the tokens without the
 * parser's events on top, the floor of anything built on libyaml. */
MEASURE size_t measure_libyaml_tokens(const strbuf *text) {
  yaml_parser_t p;
  yaml_token_t tok;
  size_t n = 0;
  bool end = false;
  parser_on(&p, text);
  for (; !end && yaml_parser_scan(&p, &tok); n++) {
    end = tok.type == YAML_STREAM_END_TOKEN || tok.type == YAML_NO_TOKEN;
    yaml_token_delete(&tok);
  }
  yaml_parser_delete(&p);
  return n;
}

/* dra's own YAML reader alone (codec/yaml_fast.c): every token of every
 * document, the counterpart of libyaml's scanner above; 0 if it gives up. */
MEASURE size_t measure_fast_tokens(const strbuf *text) {
  tk_source *src = yaml_fast_open(text->buf, text->len);
  size_t n = 0;
  tk t;
  int line;
  while (src->next_doc(src, &t, &line)) {
    for (int depth = 0;; src->next(src, &t), n++) {
      if (t.kind == TK_GIVE_UP) break;
      depth += t.kind == TK_OBJECT || t.kind == TK_ARRAY ? 1 : t.kind == TK_END ? -1 : 0;
      if (depth == 0) break;
    }
    if (t.kind == TK_GIVE_UP) break;
  }
  src->close(src);
  return t.kind == TK_GIVE_UP ? 0 : n;
}

MEASURE size_t measure_jansson_load(const strbuf *text) {
  size_t n = 0;
  for (size_t pos = 0; pos < text->len; n++) {
    json_error_t e;
    json_t *v = json_loadb(text->buf + pos, text->len - pos, JSON_DISABLE_EOF_CHECK, &e);
    if (!v) break;
    pos += (size_t)e.position;
    while (pos < text->len && text->buf[pos] == '\n') pos++;
    json_decref(v);
  }
  return n;
}

static void load_direct(const char *name, const strbuf *text, object_set *out) {
  if (!objects_load_direct(name, text->buf, text->len, out)) {
    fprintf(stderr, "bench_codec: the input does not take the direct path\n");
    exit(1);
  }
}

MEASURE void measure_yaml_direct(const strbuf *text, object_set *out) { load_direct("in.yaml", text, out); }
MEASURE void measure_json_direct(const strbuf *text, object_set *out) { load_direct("in.json", text, out); }

static void load_tree(const char *name, const strbuf *text, object_set *out) {
  strbuf err = STRBUF_INIT;
  objects_load_tree(name, text->buf, text->len, out, &err);
  sb_free(&err);
}

MEASURE void measure_yaml_tree(const strbuf *text, object_set *out) { load_tree("in.yaml", text, out); }
MEASURE void measure_json_tree(const strbuf *text, object_set *out) { load_tree("in.json", text, out); }

MEASURE void measure_encode_direct(const object_set *set, strbuf *out) {
  for (size_t i = 0; i < set->n; i++) {
    codec_encode_json(out, set->items[i].obj->info->desc, set->items[i].obj->typed, 0);
    sb_putc(out, '\n');
  }
}

MEASURE void measure_encode_tree(const object_set *set, strbuf *out) {
  for (size_t i = 0; i < set->n; i++) {
    json_t *j = api_object_encode(set->items[i].obj);
    doc_write_json(out, j);
    json_decref(j);
  }
}

MEASURE size_t measure_jansson_dump(json_t *const *trees, size_t n) {
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) {
    char *text = json_dumps(trees[i], JSON_INDENT(4) | JSON_PRESERVE_ORDER);
    bytes += strlen(text) + 1;
    free(text);
  }
  return bytes;
}

static void read_file(const char *path, strbuf *out) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) sb_add(out, chunk, got);
  fclose(f);
}

/* The documents as JSON, for `dra validate` of the same objects. */
static void write_file(const char *path, const strbuf *text) {
  FILE *f = fopen(path, "w");
  if (!f || fwrite(text->buf, 1, text->len, f) != text->len || fclose(f)) {
    perror(path);
    exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: bench_codec FILE.yaml [JSON-OUT]\n");
    return 2;
  }
  strbuf yaml = STRBUF_INIT, json = STRBUF_INIT, direct_out = STRBUF_INIT, tree_out = STRBUF_INIT;
  read_file(argv[1], &yaml);
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  if (docs_load_buffer(argv[1], yaml.buf, yaml.len, &ds, &err)) {
    fprintf(stderr, "bench_codec: %s\n", sb_str(&err));
    return 2;
  }
  json_t **trees = malloc((ds.n + 1) * sizeof *trees);
  for (size_t i = 0; i < ds.n; i++) {
    doc_write_json(&json, ds.items[i].root);
    trees[i] = ds.items[i].root;
  }
  if (argc == 3) write_file(argv[2], &json);
  object_set sets[4] = {{0}};
  malloc_trim(0);
  size_t events = measure_libyaml_events(&yaml);
  malloc_trim(0);
  size_t tokens = measure_libyaml_tokens(&yaml);
  malloc_trim(0);
  size_t fast_tokens = measure_fast_tokens(&yaml);
  malloc_trim(0);
  measure_yaml_direct(&yaml, &sets[0]);
  malloc_trim(0);
  measure_yaml_tree(&yaml, &sets[1]);
  malloc_trim(0);
  size_t docs = measure_jansson_load(&json);
  malloc_trim(0);
  measure_json_direct(&json, &sets[2]);
  malloc_trim(0);
  measure_json_tree(&json, &sets[3]);
  malloc_trim(0);
  measure_encode_direct(&sets[0], &direct_out);
  malloc_trim(0);
  measure_encode_tree(&sets[1], &tree_out);
  malloc_trim(0);
  size_t dumped = measure_jansson_dump(trees, ds.n);
  bool same = direct_out.len == tree_out.len && !memcmp(direct_out.buf, tree_out.buf, tree_out.len);
  printf("yaml_bytes %zu\njson_bytes %zu\noutput_bytes %zu\njansson_output_bytes %zu\nobjects %zu\n", yaml.len,
         json.len, direct_out.len, dumped, sets[0].n);
  printf("libyaml_events %zu\nlibyaml_tokens %zu\nfast_tokens %zu\njansson_documents %zu\n", events, tokens,
         fast_tokens, docs);
  for (int i = 0; i < 4; i++) object_set_free(&sets[i]);
  free(trees);
  docset_free(&ds);
  sb_free(&yaml);
  sb_free(&json);
  sb_free(&direct_out);
  sb_free(&tree_out);
  sb_free(&err);
  if (!same) fprintf(stderr, "bench_codec: the two encodings differ\n");
  return same ? 0 : 1;
}
