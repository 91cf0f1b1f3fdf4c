"""stall_proxy.py PORTFILE LOG TARGET_PORT [TRIGGER]: a TCP proxy on loopback that
can cut one client off from etcd without stopping either, as a network
partition would. It listens on a free port (written to PORTFILE) and
relays every connection to 127.0.0.1:TARGET_PORT.

SIGUSR1 stalls it: nothing more is relayed either way; what the client
sends is read and dropped. With TRIGGER (a regular expression), SIGUSR1
only arms it: it stalls at the next piece of a request that matches
TRIGGER, which it drops (so that request is in flight: a test sees what
becomes of it). Two more faults hit only the next request matching
TRIGGER, and leave the others alone: after SIGTTIN it is lost (dropped:
etcd never sees it); after SIGTTOU its answer is lost (relayed, etcd
applies it, its reply dropped). Either way the client gets the first
line of an answer and then a connection reset, as from a member that
died while answering: it cannot know what became of the request (and
libcurl does not send it again, as it would after a reset with nothing
read on a connection it reused). SIGHUP stalls only the etcd watches
(connections whose last request was /v3/watch): the client's cache stops
hearing of changes while its other calls go on. SIGUSR2 ends a stall:
the stalled connections are closed (the partition healed, their TCP
state lost) and new ones are relayed again.

LOG gets one line per event, with the wall-clock time:
  TIME stall | TIME stall-watches | TIME resume
  TIME inflight CONN PATH  at the stall: a request relayed, not answered yet
  TIME request CONN PATH   a request line read during a stall
  TIME close CONN          the client closed a connection during a stall
  TIME lost CONN PATH      a request dropped after SIGTTIN
  TIME unanswered CONN PATH  a request whose reply was dropped after SIGTTOU
tests/serve_etcd_stall.sh reads it to see when the cut-off client gave up
its requests and whether it still sent writes; tests/serve_etcd_lost_write.sh
loses a claim's allocation write or its answer."""
import os
import re
import select
import signal
import socket
import struct
import sys
import threading
import time

port_file, log_path, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
trigger = re.compile(sys.argv[4].encode()) if len(sys.argv) > 4 else None
armed = threading.Event()
lose_request = threading.Event()
lose_reply = threading.Event()
stalled = threading.Event()
watches_stalled = threading.Event()
lock = threading.Lock()
log = open(log_path, "a", buffering=1)
stalled_socks = set()
awaiting = {}  # connection: the path of its request relayed and not answered yet
last_path = {}  # connection: the path of its last request
REQUEST = re.compile(rb"(?:^|\r\n)(?:POST|GET|PUT) (\S+) HTTP/1\.1\r\n")


def note(*words):
    with lock:
        log.write("%.3f %s\n" % (time.time(), " ".join(str(w) for w in words)))


def reset(sock):
    """Cuts sock off in the middle of an answer, as a peer that died."""
    try:
        sock.sendall(b"HTTP/1.1 200 OK\r\n")
        time.sleep(0.05)
    except OSError:
        pass
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def take(fault, data):
    """Whether data is the request the armed fault hits (disarming it)."""
    with lock:
        if not fault.is_set() or not trigger or not trigger.search(data):
            return False
        fault.clear()
        return True


def relay(n, client):
    try:
        upstream = socket.create_connection(("127.0.0.1", target))
    except OSError:
        client.close()
        return
    peers = {client: upstream, upstream: client}
    unanswered = None  # the path of the request whose reply is to be lost
    try:
        while True:
            ready, _, _ = select.select(list(peers), [], [], 0.05)
            cut = stalled.is_set() or (watches_stalled.is_set() and last_path.get(n) == "/v3/watch")
            if cut:
                with lock:
                    stalled_socks.add(client)
                ready = [s for s in ready if s is client]
            for s in ready:
                try:
                    data = s.recv(65536)
                except OSError:
                    data = b""
                if cut:
                    if s is client:
                        if not data:
                            note("close", n)
                            return
                        for path in REQUEST.findall(data):
                            note("request", n, path.decode())
                    continue  # dropped
                if not data:
                    return
                if s is client and take(lose_request, data):
                    note("lost", n, b" ".join(REQUEST.findall(data)).decode() or last_path.get(n, "?"))
                    reset(client)
                    return
                if s is client and take(lose_reply, data):
                    unanswered = b" ".join(REQUEST.findall(data)).decode() or last_path.get(n, "?")
                elif s is upstream and unanswered:
                    note("unanswered", n, unanswered)
                    reset(client)
                    return
                if s is client and armed.is_set() and trigger.search(data):
                    armed.clear()
                    stall()
                    for path in REQUEST.findall(data) or [last_path.get(n, "?").encode()]:
                        note("inflight", n, path.decode())
                    continue
                with lock:
                    if s is client:
                        for path in REQUEST.findall(data):
                            awaiting[n] = last_path[n] = path.decode()
                    else:
                        awaiting.pop(n, None)
                peers[s].sendall(data)
    except OSError:
        return
    finally:
        with lock:
            awaiting.pop(n, None)
            last_path.pop(n, None)
        for s in peers:
            s.close()


def stall():
    stalled.set()
    note("stall")
    with lock:
        pending = sorted(awaiting.items())
    for n, path in pending:
        note("inflight", n, path)


def on_stall(signum, frame):
    if trigger:
        armed.set()
    else:
        stall()


def on_stall_watches(signum, frame):
    watches_stalled.set()
    note("stall-watches")


def on_resume(signum, frame):
    stalled.clear()
    watches_stalled.clear()
    with lock:
        for s in stalled_socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        stalled_socks.clear()
    note("resume")


signal.signal(signal.SIGUSR1, on_stall)
signal.signal(signal.SIGHUP, on_stall_watches)
signal.signal(signal.SIGUSR2, on_resume)
signal.signal(signal.SIGTTIN, lambda signum, frame: lose_request.set())
signal.signal(signal.SIGTTOU, lambda signum, frame: lose_reply.set())
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
with open(port_file + ".tmp", "w") as f:
    f.write(str(listener.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
count = 0
while True:
    try:
        conn, _ = listener.accept()
    except InterruptedError:
        continue
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    count += 1
    threading.Thread(target=relay, args=(count, conn), daemon=True).start()
