/* schema_desc.h: the macros that build a struct's descriptor table from its
 * field list (schema.h), shared by the files that define descriptors
 * (types.c, types_workloads.c). */
#ifndef DRA_SCHEMA_DESC_H
#define DRA_SCHEMA_DESC_H
#include "api/schema.h"
#include <stddef.h>

#define SCHEMA_DESC_STR(S, c, j, T, F) {j, K_STR, offsetof(S, c), 0, NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_ATOM(S, c, j, T, F) {j, K_ATOM, offsetof(S, c), 0, NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_BOOL(S, c, j, T, F) {j, K_BOOL, offsetof(S, c), offsetof(S, c##_set), NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_INT(S, c, j, T, F) {j, K_INT, offsetof(S, c), offsetof(S, c##_set), NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_QTY(S, c, j, T, F) {j, K_QTY, offsetof(S, c), offsetof(S, c##_set), NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_OBJ(S, c, j, T, F) {j, K_OBJ, offsetof(S, c), 0, &T##_desc, F, sizeof("" j) - 1},
#define SCHEMA_DESC_EMB(S, c, j, T, F) {j, K_EMB, offsetof(S, c), 0, &T##_desc, F, sizeof("" j) - 1},
#define SCHEMA_DESC_LIST(S, c, j, T, F) {j, K_LIST, offsetof(S, c), 0, &T##_desc, F, sizeof("" j) - 1},
#define SCHEMA_DESC_MAP(S, c, j, T, F) {j, K_MAP, offsetof(S, c), 0, &T##_desc, F, sizeof("" j) - 1},
#define SCHEMA_DESC_RAW(S, c, j, T, F) {j, K_RAW, offsetof(S, c), 0, NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC_RAW_TEXT(S, c, j, T, F) {j, K_RAW_TEXT, offsetof(S, c), 0, NULL, F, sizeof("" j) - 1},
#define SCHEMA_DESC(S, K, c, j, T, F) SCHEMA_DESC_##K(S, c, j, T, F)

#define DEFINE_DESC(S, FLAGS)                                                          \
  static const field_desc S##_fields[] = {S##_FIELDS(SCHEMA_DESC, S)};                 \
  static unsigned char S##_facts;                                                       \
  const type_desc S##_desc = {#S, K_EMB, sizeof(S), sizeof(S##_entry), offsetof(S##_entry, value), \
                              offsetof(S, _extra), S##_fields, sizeof S##_fields / sizeof S##_fields[0], FLAGS, \
                              &S##_facts};

#define DEFINE_SCALAR_DESC(T, KIND) \
  const type_desc T##_desc = {#T, KIND, sizeof(T), sizeof(T##_entry), offsetof(T##_entry, value), 0, NULL, 0, 0, NULL};

#endif
