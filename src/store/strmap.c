/* strmap.c: chained hash table behind strmap.h; doubles when the load
 * reaches one node per bucket. */
#include "store/strmap.h"
#include "util/hash_words.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

struct strmap_node {
  strmap_node *next;
  uint64_t hash;
  void *value;
  char key[];
};

static uint64_t hash_key(const char *key) { return hash_words(key, strlen(key)); }

static strmap_node **find(const strmap *m, const char *key, uint64_t h) {
  strmap_node **p = &m->buckets[h & (m->n_buckets - 1)];
  while (*p && ((*p)->hash != h || strcmp((*p)->key, key) != 0)) p = &(*p)->next;
  return p;
}

static void grow(strmap *m) {
  size_t cap = m->n_buckets ? m->n_buckets * 2 : 16;
  strmap_node **buckets = xcalloc(cap, sizeof *buckets);
  for (size_t i = 0; i < m->n_buckets; i++) {
    strmap_node *node = m->buckets[i];
    while (node) {
      strmap_node *next = node->next;
      strmap_node **head = &buckets[node->hash & (cap - 1)];
      node->next = *head;
      *head = node;
      node = next;
    }
  }
  free(m->buckets);
  m->buckets = buckets;
  m->n_buckets = cap;
}

void *strmap_get(const strmap *m, const char *key) {
  if (!m->n_buckets) return NULL;
  strmap_node *node = *find(m, key, hash_key(key));
  return node ? node->value : NULL;
}

void *strmap_put(strmap *m, const char *key, void *value) {
  if (m->n >= m->n_buckets) grow(m);
  uint64_t h = hash_key(key);
  strmap_node **p = find(m, key, h);
  if (*p) {
    void *old = (*p)->value;
    (*p)->value = value;
    return old;
  }
  size_t len = strlen(key);
  strmap_node *node = xmalloc(sizeof *node + len + 1);
  node->next = NULL;
  node->hash = h;
  node->value = value;
  memcpy(node->key, key, len + 1);
  *p = node;
  m->n++;
  return NULL;
}

void *strmap_remove(strmap *m, const char *key) {
  if (!m->n_buckets) return NULL;
  strmap_node **p = find(m, key, hash_key(key));
  strmap_node *node = *p;
  if (!node) return NULL;
  void *value = node->value;
  *p = node->next;
  free(node);
  m->n--;
  return value;
}

void strmap_each(const strmap *m, void (*fn)(void *ctx, void *value), void *ctx) {
  for (size_t i = 0; i < m->n_buckets; i++)
    for (strmap_node *node = m->buckets[i]; node; node = node->next) fn(ctx, node->value);
}

void strmap_each_entry(const strmap *m, void (*fn)(void *ctx, const char *key, void *value), void *ctx) {
  for (size_t i = 0; i < m->n_buckets; i++)
    for (strmap_node *node = m->buckets[i]; node; node = node->next) fn(ctx, node->key, node->value);
}

void strmap_free(strmap *m, void (*free_value)(void *value)) {
  for (size_t i = 0; i < m->n_buckets; i++) {
    strmap_node *node = m->buckets[i];
    while (node) {
      strmap_node *next = node->next;
      if (free_value) free_value(node->value);
      free(node);
      node = next;
    }
  }
  free(m->buckets);
  *m = (strmap){0};
}
