#!/usr/bin/env bash
# Remakes the profile fixtures of harness/profile's tests: node.cpuprofile
# (a tiny app under the pinned Node, with a scoped and a plain package and
# two .next server chunks) and go.pprof (a tiny Go program on
# modernc.org/sqlite and encoding/json). Both are made in
# /tmp/tfbench-profile-fixture, so the paths inside are the same every time.
# Run from the repository root: bash harness/profile/testdata/make-fixtures.sh
# (then go test ./harness/profile -update rewrites the golden files).
set -euo pipefail
root=$(pwd)
out=$root/harness/profile/testdata
node=${NODE:-$(ls -d "${TFBENCH_TEST_RUNTIMES:-$HOME/.cache/tfbench/runtimes}"/node-24.22.3/node/bin/node)}
dir=/tmp/tfbench-profile-fixture
rm -rf "$dir"
mkdir -p "$dir/node/node_modules/@tiny/json" "$dir/node/node_modules/tiny-html" "$dir/node/.next/server/chunks/ssr" "$dir/go"

cat > "$dir/node/node_modules/@tiny/json/index.js" <<'EOF'
// A scoped package: serializes rows the slow way.
exports.encode = function encode(rows) {
  let s = '[';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) s += ',';
    s += JSON.stringify(rows[i]);
  }
  return s + ']';
};
EOF
cat > "$dir/node/node_modules/tiny-html/index.js" <<'EOF'
// An unscoped package: escapes HTML one character at a time.
const map = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' };
exports.escape = function escape(text) {
  let out = '';
  for (const c of text) out += map[c] || c;
  return out;
};
EOF
cat > "$dir/node/.next/server/chunks/ssr/[root-of-the-server]__0abc._.js" <<'EOF'
// Stands in for a Next.js server chunk: renders rows to an HTML table.
exports.renderTable = function renderTable(rows, escape) {
  const parts = [];
  for (const r of rows) parts.push('<tr><td>' + r.id + '</td><td>' + escape(r.message) + '</td></tr>');
  return '<table>' + parts.join('') + '</table>';
};
EOF
cat > "$dir/node/.next/server/chunks/ssr/node_modules_react-dom_server_1q9s.js" <<'EOF'
// Stands in for a Turbopack chunk named after the package it holds.
exports.wrap = function wrap(html) {
  let sum = 0;
  for (let i = 0; i < html.length; i += 2) sum = (sum * 31 + html.charCodeAt(i)) | 0;
  return '<!DOCTYPE html><html><body data-sum="' + sum + '">' + html + '</body></html>';
};
EOF
cat > "$dir/node/app.js" <<'EOF'
// The fixture app: ~300 ms of rendering rows through two packages and two
// bundle chunks, allocating enough for the garbage collector to run, then
// 100 ms idle.
const { encode } = require('@tiny/json');
const { escape } = require('tiny-html');
const { renderTable } = require('./.next/server/chunks/ssr/[root-of-the-server]__0abc._.js');
const { wrap } = require('./.next/server/chunks/ssr/node_modules_react-dom_server_1q9s.js');

function makeRows(n) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push({ id: i, message: 'fortune <' + i + '> & "more"', n: Math.random() });
  return rows;
}

let bytes = 0;
const end = Date.now() + 300;
while (Date.now() < end) {
  const rows = makeRows(200);
  bytes += encode(rows).length + wrap(renderTable(rows, escape)).length;
}
setTimeout(() => console.log('bytes', bytes), 100);
EOF
(cd "$dir/node" && "$node" --cpu-prof --cpu-prof-interval 4000 --cpu-prof-dir "$dir/node/prof" app.js)
cp "$dir"/node/prof/*.cpuprofile "$out/node.cpuprofile"
chmod 644 "$out/node.cpuprofile"

cat > "$dir/go/main.go" <<'EOF'
// The fixture program: ~1 s of SQLite queries and JSON encoding under a
// CPU profile written to the file named by TFBENCH_CPU_PROFILE.
package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"runtime/pprof"
	"time"

	_ "modernc.org/sqlite"
)

func main() {
	f, err := os.Create(os.Getenv("TFBENCH_CPU_PROFILE"))
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	defer f.Close()
	defer pprof.StopCPUProfile()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	db.Exec("CREATE TABLE World(id INTEGER PRIMARY KEY, randomNumber INTEGER)")
	for i := 1; i <= 1000; i++ {
		db.Exec("INSERT INTO World VALUES(?, ?)", i, i*7%10000)
	}
	type row struct{ ID, RandomNumber int }
	end := time.Now().Add(time.Second)
	for time.Now().Before(end) {
		var rows []row
		for i := 1; i <= 20; i++ {
			var r row
			db.QueryRow("SELECT id, randomNumber FROM World WHERE id = ?", i*37%1000+1).Scan(&r.ID, &r.RandomNumber)
			rows = append(rows, r)
		}
		json.NewEncoder(io.Discard).Encode(rows)
	}
}
EOF
cat > "$dir/go/go.mod" <<EOF
module example.com/fixture

go 1.26

require modernc.org/sqlite $(go list -m -f '{{.Version}}' modernc.org/sqlite)
EOF
cp "$root/go.sum" "$dir/go/go.sum"
(cd "$dir/go" && GOFLAGS=-mod=mod go mod tidy && CGO_ENABLED=0 go build -trimpath -o fixture . && TFBENCH_CPU_PROFILE="$out/go.pprof" ./fixture)
ls -l "$out/node.cpuprofile" "$out/go.pprof"
