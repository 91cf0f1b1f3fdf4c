"""keepalive.py URL REQUEST...: sends the requests one after the other on a
single HTTP/1.1 connection, each once the answer to the one before is read,
and prints the status code of each answer on one line, then "closed" when
the server ended the connection before answering them all (or right after
the last, when it said "Connection: close"). A REQUEST is "METHOD PATH",
then optional "|Header: value" parts, then an optional "<BODY" part; the
header "Content-Length" may be given to declare a body that is not sent.
The serve_*.sh tests use it to check that refusals (401, 403, 429) keep
the connection open as kube-apiserver's do."""
import socket
import sys


def parse(spec):
    parts = spec.split("|")
    method, path = parts[0].split(" ", 1)
    headers, body = [], b""
    for p in parts[1:]:
        if p.startswith("<"):
            body = p[1:].encode()
        else:
            headers.append(p)
    if not any(h.lower().startswith("content-length:") for h in headers) and (body or method in ("POST", "PUT", "PATCH")):
        headers.append("Content-Length: %d" % len(body))
    return method, path, headers, body


def answer(f):
    """The status code, and whether the server will close, or None if it already did."""
    line = f.readline()
    if not line:
        return None
    status = line.split()[1].decode()
    length, close = 0, False
    while True:
        h = f.readline()
        if h in (b"\r\n", b"\n", b""):
            break
        name, _, value = h.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
        if name.lower() == "connection" and value.strip().lower() == "close":
            close = True
    f.read(length)
    return status, close


def main():
    host, port = sys.argv[1].split("//", 1)[-1].rstrip("/").rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    f = s.makefile("rb")
    seen = []
    for spec in sys.argv[2:]:
        method, path, headers, body = parse(spec)
        head = "%s %s HTTP/1.1\r\nHost: %s\r\n%s\r\n" % (method, path, host, "".join(h + "\r\n" for h in headers))
        try:
            s.sendall(head.encode() + body)
            got = answer(f)
        except OSError:
            got = None
        if got is None:
            seen.append("closed")
            break
        seen.append(got[0])
        if got[1]:
            seen.append("closed")
            break
    print(" ".join(seen))


main()
