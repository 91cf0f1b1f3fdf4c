/* deadlines.h: the time limits on a connection that libmicrohttpd's
 * inactivity timeout cannot give, since any byte restarts that one. A
 * client that sends its request headers one byte every few seconds would
 * otherwise keep its connection for ever. Each connection has one deadline
 * at a time (docs/server.md, "Connections and threads"):
 * - from its accept, the first request's headers must all be in within the
 *   header timeout, as Go's http.Server ReadHeaderTimeout bounds them for
 *   kube-apiserver;
 * - once they are, its body must be in within the request timeout;
 * - while it is answered, none;
 * - kept alive after an answer: the next request's headers must be in
 *   within the idle timeout plus the header timeout, and within the header
 *   timeout of its request line.
 * A thread looks at them every DEADLINE_PERIOD_MS and shuts down the socket
 * of a connection past its deadline; libmicrohttpd then closes it. */
#ifndef DRA_SRV_DEADLINES_H
#define DRA_SRV_DEADLINES_H
#include <microhttpd.h>
#include <stddef.h>

typedef struct deadline_keeper deadline_keeper;

deadline_keeper *deadlines_start(void);
/* The MHD_OPTION_NOTIFY_CONNECTION callback (cls: the keeper): a started
 * connection gets a deadline of header_seconds, set with
 * deadlines_set_first. */
void deadlines_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode code);
/* The header timeout every new connection gets (seconds). */
void deadlines_set_first(deadline_keeper *k, unsigned header_seconds);
/* c's deadline becomes seconds from now; 0: none. */
void deadlines_set(struct MHD_Connection *c, unsigned seconds);
/* c's deadline becomes seconds from now if that is sooner (or it had none). */
void deadlines_tighten(struct MHD_Connection *c, unsigned seconds);
/* After MHD_stop_daemon: stops the thread. */
void deadlines_free(deadline_keeper *k);

#endif
