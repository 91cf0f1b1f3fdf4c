/* streams.h: the transport side of streamed responses (watch): each stream
 * is a libmicrohttpd content reader that never blocks. A connection with
 * nothing to send is suspended (it holds no thread) and resumed when its
 * producer calls http_stream_wake(); one hub thread ticks every stream once
 * a second (timeouts, bookmarks) and notices clients that hung up while
 * suspended, which libmicrohttpd cannot see itself. See docs/server.md,
 * "Connections and threads". */
#ifndef DRA_SRV_STREAMS_H
#define DRA_SRV_STREAMS_H
#include "server/http.h"
#include <microhttpd.h>

typedef struct stream_hub stream_hub;

stream_hub *stream_hub_start(void);
/* The response for st on connection c (the daemon must allow suspend and
 * resume); the response owns st and closes it when MHD destroys it. NULL if
 * MHD cannot make one (st is then closed). */
struct MHD_Response *stream_hub_response(stream_hub *h, struct MHD_Connection *c, http_stream *st);
/* Ends every stream after what it already produced and resumes them all:
 * call before MHD_stop_daemon, which must find no suspended connection. */
void stream_hub_end_all(stream_hub *h);
/* Streams open now. */
size_t stream_hub_count(stream_hub *h);
/* After MHD_stop_daemon: stops the hub thread. */
void stream_hub_free(stream_hub *h);

#endif
