#!/bin/sh
# Creates (or updates) every connector of $CONFIG_DIR/*.json through the Connect REST API at
# $CONNECT_URL, each named after its file, then waits until each one and its tasks run. Reports
# every connector's result, and exits 1 if any could not be registered or did not come up
# (FAILED, or not RUNNING within $REGISTER_TIMEOUT seconds).
set -u
connect=${CONNECT_URL:-http://connect:8083}
dir=${CONFIG_DIR:-/config/docker}
timeout=${REGISTER_TIMEOUT:-120}

registered=""
failed=0
total=0
for file in "$dir"/*.json; do
  [ -e "$file" ] || { echo "register: no connector configs in $dir" >&2; exit 1; }
  name=$(basename "$file" .json)
  total=$((total + 1))
  response=$(curl -sS -w '\n%{http_code}' -X PUT -H 'Content-Type: application/json' \
    --data "@$file" "$connect/connectors/$name/config" 2>&1)
  status=$(printf '%s\n' "$response" | tail -n 1)
  case "$status" in
    201) echo "$name: created"; registered="$registered $name" ;;
    200) echo "$name: updated"; registered="$registered $name" ;;
    *)
      echo "$name: NOT REGISTERED (HTTP $status): $(printf '%s\n' "$response" | sed '$d')" >&2
      failed=$((failed + 1))
      ;;
  esac
done

# A connector is up when it and at least one task report RUNNING and nothing else.
states() {
  curl -sS "$connect/connectors/$1/status" 2>/dev/null | grep -o '"state":"[A-Z]*"' | cut -d'"' -f4
}
for name in $registered; do
  waited=0
  while :; do
    s=$(states "$name")
    if printf '%s\n' "$s" | grep -q FAILED; then
      echo "$name: FAILED (GET $connect/connectors/$name/status for the trace)" >&2
      failed=$((failed + 1))
      break
    fi
    if [ "$(printf '%s\n' "$s" | grep -c RUNNING)" -ge 2 ] \
      && ! printf '%s\n' "$s" | grep -qv RUNNING; then
      echo "$name: RUNNING"
      break
    fi
    if [ "$waited" -ge "$timeout" ]; then
      echo "$name: not RUNNING after ${timeout}s (states: $(echo $s))" >&2
      failed=$((failed + 1))
      break
    fi
    sleep 2
    waited=$((waited + 2))
  done
done

if [ "$failed" -gt 0 ]; then
  echo "register: $failed problem(s) with $total connector(s)" >&2
  exit 1
fi
echo "register: $total connector(s) running"
