package main

import (
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/runtime"
)

func TestLoadConfig(t *testing.T) {
	const db = "testdata/empty.db" // only its existence is checked
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	got, err := loadConfig(env("PORT", "8080", "DATABASE_PATH", db))
	if want := (config{addr: "127.0.0.1:8080", dbPath: db, mode: runtime.ModePool, appDir: "app", renderTimeout: 10 * time.Second, admission: runtime.AdmissionCost}); err != nil || got != want {
		t.Errorf("defaults: %+v, %v; want %+v", got, err, want)
	}
	got, err = loadConfig(env("PORT", "9", "HOST", "::1", "DATABASE_PATH", db, "ENGINE_MODE", "serialized", "ENGINE_APP", "/srv/app", "ENGINE_RENDER_TIMEOUT", "250ms", "ENGINE_JSX", "runtime", "ENGINE_ADMISSION", "arrival"))
	if want := (config{addr: "[::1]:9", dbPath: db, mode: runtime.ModeSerialized, appDir: "/srv/app", renderTimeout: 250 * time.Millisecond, runtimeJSX: true, admission: runtime.AdmissionArrival}); err != nil || got != want {
		t.Errorf("all set: %+v, %v; want %+v", got, err, want)
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"DATABASE_PATH", db}, "PORT is not set (the TCP port to listen on)"},
		{[]string{"PORT", "0", "DATABASE_PATH", db}, `PORT="0": want a TCP port 1..65535`},
		{[]string{"PORT", "http", "DATABASE_PATH", db}, `PORT="http": want a TCP port 1..65535`},
		{[]string{"PORT", "8080"}, "DATABASE_PATH is not set (the SQLite dataset)"},
		{[]string{"PORT", "8080", "DATABASE_PATH", "testdata/missing.db"}, `DATABASE_PATH="testdata/missing.db": stat testdata/missing.db: no such file or directory`},
		{[]string{"PORT", "8080", "DATABASE_PATH", "testdata"}, `DATABASE_PATH="testdata": not a regular file`},
		{[]string{"PORT", "8080", "DATABASE_PATH", db, "ENGINE_MODE", "cluster"}, `ENGINE_MODE="cluster": want "pool" or "serialized"`},
		{[]string{"PORT", "8080", "DATABASE_PATH", db, "ENGINE_JSX", "precompiled"}, `ENGINE_JSX="precompiled": want "compiled" or "runtime"`},
		{[]string{"PORT", "8080", "DATABASE_PATH", db, "ENGINE_ADMISSION", "priority"}, `ENGINE_ADMISSION="priority": want "cost" or "arrival"`},
		{[]string{"PORT", "8080", "DATABASE_PATH", db, "ENGINE_RENDER_TIMEOUT", "10"}, `ENGINE_RENDER_TIMEOUT="10": want a positive Go duration such as 10s`},
		{[]string{"PORT", "8080", "DATABASE_PATH", db, "ENGINE_RENDER_TIMEOUT", "-1s"}, `ENGINE_RENDER_TIMEOUT="-1s": want a positive Go duration such as 10s`},
	} {
		if _, err := loadConfig(env(tc.env...)); err == nil || err.Error() != tc.want {
			t.Errorf("loadConfig(%q) error = %v, want %s", tc.env, err, tc.want)
		}
	}
}
