/* gofloat.h: floats printed as Go prints them: strconv.FormatFloat(f, 'g', -1,
 * bits) (what go-yaml writes) and encoding/json's float encoding (what
 * kubectl -o json writes). Shortest digits that read back to the same value. */
#ifndef DRA_GOFLOAT_H
#define DRA_GOFLOAT_H
#include "util/strbuf.h"

/* strconv.FormatFloat(f, 'g', -1, bits), bits 32 or 64; "+Inf", "-Inf", "NaN". */
void go_format_float_g(strbuf *out, double f, int bits);
/* encoding/json: 'f' for 1e-6 <= |f| < 1e21, else 'e' with "e-07" -> "e-7". f must be finite. */
void go_format_float_json(strbuf *out, double f);

#endif
