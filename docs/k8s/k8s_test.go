package k8s

import (
	"os"
	"strings"
	"testing"
)

// load decodes the manifest file name, failing the test on an error.
func load(t *testing.T, name string) *Manifest {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestManifests: the manifests docs/shards.md shows decode strictly and
// hold together: a claim and an Indexed Job of 8 shards, then the merge.
func TestManifests(t *testing.T) {
	shards, merge := load(t, "tfbench-shards.yaml"), load(t, "tfbench-merge.yaml")
	if len(shards.Claims) != 1 || len(shards.Jobs) != 1 || len(merge.Jobs) != 1 || len(merge.Claims) != 0 {
		t.Fatalf("shards: %d claims, %d jobs; merge: %d claims, %d jobs", len(shards.Claims), len(shards.Jobs), len(merge.Claims), len(merge.Jobs))
	}
	if err := Check(shards, merge); err != nil {
		t.Fatal(err)
	}
	j := shards.Jobs[0]
	if *j.Spec.Completions != 8 || *j.Spec.Parallelism != 8 || *j.Spec.BackoffLimitPerIndex != 0 || j.Spec.Template.Spec.Containers[0].Resources.Limits.Cpu().String() != "2" {
		t.Errorf("shard Job: completions %d, parallelism %d, backoffLimitPerIndex %d, CPU limit %s; want 8, 8, 0, 2",
			*j.Spec.Completions, *j.Spec.Parallelism, *j.Spec.BackoffLimitPerIndex, j.Spec.Template.Spec.Containers[0].Resources.Limits.Cpu())
	}
}

// TestTypo: a misspelt field, at the top of a Job's spec or deep in its pod
// template, is an error naming the file, the document and the field.
func TestTypo(t *testing.T) {
	for name, want := range map[string]string{
		"testdata/typo.yaml":        `testdata/typo.yaml: document 1 (Job tfbench-shards): error unmarshaling JSON: while decoding JSON: json: unknown field "completionsMode"`,
		"testdata/nested-typo.yaml": `testdata/nested-typo.yaml: document 2 (Job tfbench-merge): error unmarshaling JSON: while decoding JSON: json: unknown field "volumeMount"`,
	} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(name, data); err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", name, err, want)
		}
	}
}

// TestDecodeErrors: a kind the check does not know, and a field given
// twice.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", `x.yaml: document 1 (Deployment web): apiVersion "apps/v1" kind "Deployment": want v1 PersistentVolumeClaim or batch/v1 Job`},
		{"# only a comment\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completions: 1, completions: 2}\n", `x.yaml: document 2 (Job j): error converting YAML to JSON: yaml: unmarshal errors:`},
	} {
		if _, err := Decode("x.yaml", []byte(c.doc)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant %s", c.doc, err, c.want)
		}
	}
}

// TestCheck: each rule Check holds, broken in a copy of the real manifests.
func TestCheck(t *testing.T) {
	shardsYAML, err := os.ReadFile("tfbench-shards.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mergeYAML, err := os.ReadFile("tfbench-merge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, old, new, want string
	}{
		{"shards", "--shard $((JOB_COMPLETION_INDEX+1))/8", "--shard $((JOB_COMPLETION_INDEX+1))/4",
			"Job tfbench-shards: --shard …/4 but completions 8: the shard count must be the Job's"},
		{"shards", "completions: 8", "completions: 9",
			"Job tfbench-shards: parallelism must equal completions (9): every shard runs at once, on its own node"},
		{"shards", "completionMode: Indexed", "completionMode: NonIndexed",
			"Job tfbench-shards: completionMode must be Indexed (the index is the shard)"},
		{"shards", "--shard $((JOB_COMPLETION_INDEX+1))/8", "--shard 1/8",
			"Job tfbench-shards: the container does not run bench with --shard $((JOB_COMPLETION_INDEX+1))/N"},
		{"shards", "restartPolicy: Never", "restartPolicy: Always",
			`Job tfbench-shards: restartPolicy "Always": a Job's pod needs Never or OnFailure`},
		{"shards", "accessModes: [ReadWriteMany]", "accessModes: [ReadWriteOnce]",
			"Job tfbench-shards: --copy-results /results/jobs/shard-$((JOB_COMPLETION_INDEX+1))-of-8.json: claim tfbench-results must be ReadWriteMany: every shard writes to it at once"},
		{"shards", "- {name: results, mountPath: /results}", "- {name: results, mountPath: /out}",
			"Job tfbench-shards: --copy-results /results/jobs/shard-$((JOB_COMPLETION_INDEX+1))-of-8.json: /results/jobs is on no mounted volume"},
		{"shards", "- {name: work, mountPath: /work}", "- {name: scratch, mountPath: /work}",
			`Job tfbench-shards: container bench mounts volume "scratch", which the pod does not have`},
		{"merge", "{claimName: tfbench-results}", "{claimName: results}",
			`Job tfbench-merge: volume results claims "results", which the manifests do not define`},
		{"merge", "/results/jobs/*.json", "/results/shards/*.json",
			"Job tfbench-merge merges /shards on claim tfbench-results; Job tfbench-shards writes the shards to /jobs on claim tfbench-results"},
		{"merge", "image: golang:1.26.4-bookworm", "image: ''",
			`Job tfbench-merge: a container needs a name and an image (name "merge", image "")`},
		{"merge", "tfbench report --results", "tfbench render --results",
			"Job tfbench-merge: the container does not run tfbench merge over DIR/*.json and tfbench report"},
	} {
		s, m := string(shardsYAML), string(mergeYAML)
		target := &s
		if c.file == "merge" {
			target = &m
		}
		if !strings.Contains(*target, c.old) {
			t.Fatalf("tfbench-%s.yaml no longer has %q to break", c.file, c.old)
		}
		*target = strings.Replace(*target, c.old, c.new, 1)
		shards, err := Decode("tfbench-shards.yaml", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		merge, err := Decode("tfbench-merge.yaml", []byte(m))
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(shards, merge); err == nil || err.Error() != c.want {
			t.Errorf("%s: %q → %q: %v\nwant %s", c.file, c.old, c.new, err, c.want)
		}
	}
}
