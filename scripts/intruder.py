"""What a second local user tries against the embedded store: read its files, then talk the redis
protocol by hand to its port (no package needed: it runs under a plain system python as `nobody`).

    python3 scripts/intruder.py <store directory> <port> <graph>

Prints one JSON object: for each file, "read" / "listed" or the error; for each command, the
first line of the server's reply. The fault drill and tests/test_local_security.py both run it
(as `python3 -c <this file's text>`, so `nobody` needs no access to the repository).
"""

import json
import os
import socket
import sys

if len(sys.argv) != 4 or not sys.argv[2].isdigit():
    sys.exit(__doc__.strip().split("\n\n")[1].strip().join(["usage: ", ""]))
directory, port, graph = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seen = {}
for name in ("server.json", "password", "redis.conf", "appendonlydir"):
    path = os.path.join(directory, name)
    try:
        if os.path.isdir(path):
            seen[name] = "listed" if os.listdir(path) else ""
        else:
            with open(path) as handle:
                seen[name] = "read" if handle.read() is not None else ""
    except OSError as exc:
        seen[name] = type(exc).__name__
for command in (("GRAPH.RO_QUERY", graph, "MATCH (n) RETURN count(n)"),
                ("GRAPH.QUERY", graph, "CREATE (:Owned)"), ("DEL", graph), ("KEYS", "*"),
                ("CONFIG", "GET", "dir")):
    wire = f"*{len(command)}\r\n" + "".join(
        f"${len(part.encode())}\r\n{part}\r\n" for part in command)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(wire.encode())
        seen[command[0]] = sock.recv(200).decode(errors="replace").split("\r\n")[0]
print(json.dumps(seen))
