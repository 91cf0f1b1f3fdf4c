/* lazy_mhd.c: the libmicrohttpd and GnuTLS calls dra serve makes, loaded on
 * the first one (util/lazy_lib.h), so that no other command pays for
 * binding them and the libraries GnuTLS brings. */
#include "util/die.h"
#include "util/lazy_lib.h"
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <stdarg.h>

/* The SONAMEs of libmicrohttpd12 (0.9.x) and libgnutls30 (3.x). */
static lazy_lib mhd = LAZY_LIB_INIT("libmicrohttpd.so.12");
static lazy_lib gnutls = LAZY_LIB_INIT("libgnutls.so.30");

LAZY_LIB_CALL(mhd, enum MHD_Result, MHD_add_response_header,
              (struct MHD_Response * response, const char *header, const char *content),
              (response, header, content))
LAZY_LIB_CALL(mhd, struct MHD_Response *, MHD_create_response_from_buffer,
              (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
LAZY_LIB_CALL(mhd, struct MHD_Response *, MHD_create_response_from_callback,
              (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
               MHD_ContentReaderFreeCallback crfc),
              (size, block_size, crc, crc_cls, crfc))
LAZY_LIB_CALL_VOID(mhd, MHD_destroy_response, (struct MHD_Response * response), (response))
LAZY_LIB_CALL(mhd, int, MHD_get_connection_values,
              (struct MHD_Connection * connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
               void *iterator_cls),
              (connection, kind, iterator, iterator_cls))
LAZY_LIB_CALL(mhd, enum MHD_Result, MHD_is_feature_supported, (enum MHD_FEATURE feature), (feature))
LAZY_LIB_CALL(mhd, const char *, MHD_lookup_connection_value,
              (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key),
              (connection, kind, key))
LAZY_LIB_CALL(mhd, enum MHD_Result, MHD_queue_response,
              (struct MHD_Connection * connection, unsigned int status_code, struct MHD_Response *response),
              (connection, status_code, response))
LAZY_LIB_CALL_VOID(mhd, MHD_resume_connection, (struct MHD_Connection * connection), (connection))
LAZY_LIB_CALL_VOID(mhd, MHD_suspend_connection, (struct MHD_Connection * connection), (connection))
LAZY_LIB_CALL_VOID(mhd, MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))

/* The variadic calls. MHD_start_daemon has its va_list form. The info
 * calls read no argument beyond the info type in libmicrohttpd 0.9.x (their
 * `...` is for future types), and the connection option has one type,
 * MHD_CONNECTION_OPTION_TIMEOUT, whose one argument is an unsigned int. */
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
  static void *_Atomic slot;
  struct MHD_Daemon *(*start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback,
                              void *, va_list) =
      (struct MHD_Daemon * (*)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback,
                               void *, va_list)) lazy_lib_symbol(&mhd, &slot, "MHD_start_daemon_va");
  va_list ap;
  va_start(ap, dh_cls);
  struct MHD_Daemon *daemon = start(flags, port, apc, apc_cls, dh, dh_cls, ap);
  va_end(ap);
  return daemon;
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...) {
  static void *_Atomic slot;
  const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
      (const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...))
          lazy_lib_symbol(&mhd, &slot, "MHD_get_connection_info");
  return get(connection, info_type);
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
  static void *_Atomic slot;
  const union MHD_DaemonInfo *(*get)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =
      (const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...))
          lazy_lib_symbol(&mhd, &slot, "MHD_get_daemon_info");
  return get(daemon, info_type);
}

enum MHD_Result MHD_set_connection_option(struct MHD_Connection *connection, enum MHD_CONNECTION_OPTION option, ...) {
  if (option != MHD_CONNECTION_OPTION_TIMEOUT) die_bug("MHD_set_connection_option: an option lazy_mhd.c can't pass");
  static void *_Atomic slot;
  enum MHD_Result (*set)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...) =
      (enum MHD_Result(*)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...))
          lazy_lib_symbol(&mhd, &slot, "MHD_set_connection_option");
  va_list ap;
  va_start(ap, option);
  unsigned int seconds = va_arg(ap, unsigned int);
  va_end(ap);
  return set(connection, option, seconds);
}

LAZY_LIB_CALL(gnutls, const gnutls_datum_t *, gnutls_certificate_get_peers,
              (gnutls_session_t session, unsigned int *list_size), (session, list_size))
LAZY_LIB_CALL(gnutls, int, gnutls_certificate_verify_peers2, (gnutls_session_t session, unsigned int *status),
              (session, status))
LAZY_LIB_CALL(gnutls, int, gnutls_x509_crt_init, (gnutls_x509_crt_t * cert), (cert))
LAZY_LIB_CALL_VOID(gnutls, gnutls_x509_crt_deinit, (gnutls_x509_crt_t cert), (cert))
LAZY_LIB_CALL(gnutls, int, gnutls_x509_crt_import,
              (gnutls_x509_crt_t cert, const gnutls_datum_t *data, gnutls_x509_crt_fmt_t format),
              (cert, data, format))
LAZY_LIB_CALL(gnutls, int, gnutls_x509_crt_get_dn_by_oid,
              (gnutls_x509_crt_t cert, const char *oid, unsigned indx, unsigned int raw_flag, void *buf,
               size_t *buf_size),
              (cert, oid, indx, raw_flag, buf, buf_size))
