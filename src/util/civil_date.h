/* civil_date.h: days since 1970-01-01 to and from proleptic Gregorian
 * year, month, day, for any year (Howard Hinnant's days_from_civil and
 * civil_from_days), so that no libc time zone is read. */
#ifndef DRA_UTIL_CIVIL_DATE_H
#define DRA_UTIL_CIVIL_DATE_H
#include <stdint.h>

int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

#endif
