"""serve.py: what the soak tests share: dra serve started over plain HTTP on
a loopback port of its own choosing, and one JSON request on a connection."""
import http.client
import json
import os
import subprocess
import time


class Server:
    """dra serve on DATA with the flags ARGS, its output appended to
    LOG_PATH, in ENV (None: this one); host and port are read back from the
    kubeconfig it writes."""

    def __init__(self, dra, data, log_path, env=None, args=()):
        kubeconfig = os.path.join(data, "kubeconfig")
        if os.path.exists(kubeconfig):
            os.unlink(kubeconfig)  # a restart must not read the old port
        self.log = open(log_path, "a")
        self.proc = subprocess.Popen([dra, "serve", "--insecure-http", "--listen", "127.0.0.1:0", "--data-dir", data, *args],
                                     stdout=self.log, stderr=self.log, env=env)
        for _ in range(400):
            if os.path.exists(kubeconfig) and os.path.getsize(kubeconfig):
                break
            if self.proc.poll() is not None:
                raise SystemExit("dra serve exited: see " + self.log.name)
            time.sleep(0.05)
        addr = open(kubeconfig).read().split("server: http://")[1].split()[0]
        self.host, port = addr.rsplit(":", 1)
        self.port = int(port)

    def conn(self, timeout=10):
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


def call(conn, method, path, body=None):
    """(status, parsed body); raises OSError/HTTPException once the server is gone."""
    data = json.dumps(body) if body is not None else None
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    resp = conn.getresponse()
    text = resp.read()
    return resp.status, json.loads(text) if text else None
