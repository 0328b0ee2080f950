package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestLoadConfigRepository(t *testing.T) {
	c, err := LoadConfig("../../.github/pr-bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{FailSlower: 0.10, Alpha: 0.05, MinChange: 0.05, Rounds: 6, Adapters: []string{"go-stdlib"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v, want %+v", c, want)
	}
}

func TestLoadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       Config
		err        string
	}{
		{name: "empty keys keep defaults", text: "alpha: 0.01\n",
			want: Config{FailSlower: 0.10, Alpha: 0.01, MinChange: 0.05, Adapters: []string{"go-stdlib"}}},
		{name: "all", text: "fail_slower_than: 2.5%\nmin_change: 0%\nrounds: 7\nadapters: [go-stdlib, node-http]\n",
			want: Config{FailSlower: 0.025, Alpha: 0.05, MinChange: 0, Rounds: 7, Adapters: []string{"go-stdlib", "node-http"}}},
		{name: "no percent", text: "fail_slower_than: 0.1\n",
			err: `pr-bench.yaml:1: key "fail_slower_than": "0.1": write it as a percentage such as 10%`},
		{name: "too few rounds", text: "rounds: 4\n",
			err: `pr-bench.yaml:1: key "rounds": 4: compare needs at least 5 rounds per side`},
		{name: "alpha", text: "alpha: 1\n",
			err: `pr-bench.yaml:1: key "alpha": "1": want a number 0 < α < 1`},
		{name: "unknown key", text: "rounds: 6\nthreshold: 10%\n",
			err: `pr-bench.yaml:2: key "threshold": unknown key (want fail_slower_than, alpha, min_change, rounds, adapters)`},
		{name: "adapters not a list", text: "adapters: go-stdlib\n",
			err: `pr-bench.yaml:1: key "adapters": must be a list such as [go-stdlib, node-http], found "go-stdlib"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pr-bench.yaml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := LoadConfig(path)
			if tc.err != "" {
				if err == nil || err.Error() != filepath.Join(dir, tc.err) {
					t.Fatalf("err = %v, want %s", err, filepath.Join(dir, tc.err))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
