#!/bin/sh
# Creates (or updates) every example connector in /config/docker/*.json through the REST API.
set -eu
for file in /config/docker/*.json; do
  name=$(basename "$file" .json)
  echo "registering $name"
  curl -fsS -X PUT -H 'Content-Type: application/json' --data "@$file" \
    "http://connect:8083/connectors/$name/config"
  echo
done
