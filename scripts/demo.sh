#!/usr/bin/env bash
# The main job on the embedded defaults: ingest the bundled novel; extract the whole book offline
# and measure the extractor against the curated records, so that the default graph is the curated
# bundle plus only the extracted record kinds measured at precision >= 0.8 (the gate is printed and
# written to var/shuihu/bundle/gate.json); load it into the embedded FalkorDB, start the service,
# and print a real answer with its citations and quote checks, then the explorer's URL.
#
# The service listens on PORT (default 8000: `make demo PORT=8001` for another). A port another
# process holds stops the demo at once, naming it (exit 2); the service started here is told a
# token of its own (KBX_INSTANCE), and the demo talks to it only once /health answers with that
# token, so another process's answer is never taken for ours; if the service exits (the port
# was taken meanwhile), the demo says so with the last line of var/serve.log (exit 2).
set -euo pipefail
KBX=${KBX:-kbx}
PY=$(dirname "$KBX")/python
PORT=${PORT:-8000}
mkdir -p var

own_server() {  # the pid in var/serve.pid, when it is a `kbx serve` of ours still running
  [[ -f var/serve.pid ]] || return 1
  local pid
  pid=$(cat var/serve.pid)
  kill -0 "$pid" 2>/dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q "kbx serve"
}

if own_server; then  # the demo's own earlier service: stopped, and its port with it
  kill "$(cat var/serve.pid)" && sleep 1
fi
rm -f var/serve.pid
if ! "$PY" - "$PORT" <<'PYEOF'
import socket, sys
with socket.socket() as sock:
    try:
        sock.bind(("127.0.0.1", int(sys.argv[1])))
    except OSError:
        sys.exit(1)
PYEOF
then
  echo "error: port $PORT is taken by another process; choose a free one: make demo PORT=8001" >&2
  exit 2
fi

"$KBX" ingest
"$KBX" extract --offline   # extracted/ = the baseline's records; bundle/ = curated + what passes the gate
"$KBX" kb load             # loads bundle/ (the curated bundle itself if bundle/ is stale or absent)
INSTANCE="demo-$$-$RANDOM$RANDOM"
KBX_INSTANCE="$INSTANCE" nohup "$KBX" serve --host 127.0.0.1 --port "$PORT" > var/serve.log 2>&1 &
echo $! > var/serve.pid
"$PY" - "$PORT" "$INSTANCE" "$(cat var/serve.pid)" <<'PYEOF'
import os, sys, time, httpx
port, instance, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = f"http://127.0.0.1:{port}"

def alive() -> bool:
    """The service process still runs (a zombie, exited but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

for _ in range(240):
    if not alive():
        with open("var/serve.log", encoding="utf-8", errors="replace") as log:
            lines = [line.strip() for line in log if line.strip()]
        last = lines[-1] if lines else "(nothing logged)"
        sys.stderr.write(f"error: the service on port {port} exited: {last} "
                         f"(var/serve.log; another port: make demo PORT=8001)\n")
        sys.exit(2)
    try:
        body = httpx.get(f"{base}/health", timeout=2).json()
        if body.get("instance") == instance and body.get("ready"):
            break
    except (httpx.HTTPError, ValueError):
        pass
    time.sleep(0.5)
else:
    sys.stderr.write(f"error: the service on port {port} did not answer as ours within 120 s; "
                     "see var/serve.log\n")
    sys.exit(2)
question = "鲁智深和林冲怎么认识？"
r = httpx.post(f"{base}/ask", json={"question": question}, timeout=60).json()
print(f"\nQ: {question}\n[{r['status']}, {r['mode']}, plan {r['plan']['kind']}: {'、'.join(r['plan']['people'])}]\n")
print(r["answer"])
print("\ncitations:", ", ".join(f"{c['chunk_id']} (第{c['chapter']}回)" for c in r["citations"]))
print("quote checks:")
for q in r["quotes"]:
    print(f"  {'✓' if q['located'] else '✗'} {q['chunk_id']}  {q['text']}")
print(f"\nservice running at {base} (pid {pid}; docs: {base}/docs, MCP: {base}/mcp); "
      "stop it with `make stop`")
PYEOF
echo
echo "explorer: http://127.0.0.1:${PORT}/  (open it in a browser: it starts on 林冲's neighbourhood)"
