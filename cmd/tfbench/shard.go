package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/run"
)

// shardFlag is bench's --shard I/N: the value as given, then parsed.
// The slicing itself is run.ShardTargets; docs/shards.md has the rule.
type shardFlag struct {
	value string
	shard model.Shard
}

// shardUsage is the --shard flag's help.
const shardUsage = "run the I-th of N deterministic slices of the plan, e.g. 2/8: the framework variants (after --frameworks) other than go-stdlib/default, sorted by name, cut into N contiguous slices; go-stdlib/default runs in every shard (recorded in results.json; tfbench merge combines the shards; docs/shards.md)"

func (s *shardFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&s.value, "shard", "", shardUsage)
}

// parse reads the flag's value; an empty one is the whole plan.
func (s *shardFlag) parse() error {
	if s.value == "" {
		return nil
	}
	var err error
	s.shard, err = model.ParseShard(s.value)
	return err
}

// apply narrows cfg to the shard (cfg.Targets, cfg.Shard) and logs which
// variants it runs; the adapters in dir are read again for the reference
// when --frameworks left it out.
func (s *shardFlag) apply(cfg *run.Config, dir string, log io.Writer) error {
	if s.shard.N == 0 {
		return nil
	}
	specs, err := framework.Discover(dir)
	if err != nil {
		return err
	}
	targets, err := run.ShardTargets(s.shard, cfg.Targets, specs, dir)
	if err != nil {
		return err
	}
	cfg.Targets, cfg.Shard = targets, s.shard
	var names []string
	for _, t := range targets {
		if t.ID() != model.Reference {
			names = append(names, t.ID().String())
		}
	}
	fmt.Fprintf(log, "shard %s: %s and the reference %s\n", s.shard, strings.Join(names, ", "), model.Reference)
	return nil
}
