// Package k8s checks the Kubernetes manifests beside it offline
// (docs/shards.md): tfbench-shards.yaml, an Indexed Job whose pod I runs
// `tfbench bench --shard $((JOB_COMPLETION_INDEX+1))/N` onto a shared
// claim, and tfbench-merge.yaml, the Job that merges and renders the
// shards' results. Nothing is applied and nothing is downloaded at test
// time: every document decodes strictly (sigs.k8s.io/yaml UnmarshalStrict:
// an unknown or duplicate field is an error) into its k8s.io/api type, and
// Check holds what the shards need of each other. It is its own module so
// that the harness's go.mod does not carry k8s.io/api.
package k8s

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// Manifest is the objects of one manifest file, by kind, in file order.
type Manifest struct {
	Claims []corev1.PersistentVolumeClaim
	Jobs   []batchv1.Job
}

// docSep splits a YAML stream into documents: a line of "---".
var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

// Decode reads the YAML documents of file name (data): PersistentVolumeClaim
// (v1) and Job (batch/v1), the kinds the shard manifests use; a document of
// comments only is skipped. Each decodes strictly into its k8s.io/api type.
// Errors name the file, the document (1-based) and the object: another kind,
// a field its type does not have (a typo) or has twice, a value of the wrong
// type.
func Decode(name string, data []byte) (*Manifest, error) {
	m := &Manifest{}
	for i, doc := range docSep.Split(string(data), -1) {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, i+1, err)
		}
		if head.APIVersion == "" && head.Kind == "" && blank(doc) {
			continue
		}
		where := fmt.Sprintf("%s: document %d (%s %s)", name, i+1, head.Kind, head.Metadata.Name)
		var err error
		switch head.APIVersion + " " + head.Kind {
		case "v1 PersistentVolumeClaim":
			var c corev1.PersistentVolumeClaim
			err = yaml.UnmarshalStrict([]byte(doc), &c)
			m.Claims = append(m.Claims, c)
		case "batch/v1 Job":
			var j batchv1.Job
			err = yaml.UnmarshalStrict([]byte(doc), &j)
			m.Jobs = append(m.Jobs, j)
		default:
			return nil, fmt.Errorf("%s: apiVersion %q kind %q: want v1 PersistentVolumeClaim or batch/v1 Job", where, head.APIVersion, head.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	return m, nil
}

// blank reports whether a YAML document holds only comments and space.
func blank(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

// shardRE finds the shard flag of the bench command: --shard
// $((JOB_COMPLETION_INDEX+1))/N, the Job's 0-based index as the 1-based I;
// group 1 is N.
var shardRE = regexp.MustCompile(`--shard[ =]"?\$\(\( *JOB_COMPLETION_INDEX *\+ *1 *\)\)/([0-9]+)"?(?:\s|$)`)

// copyRE finds bench's --copy-results FILE; group 1 is FILE.
var copyRE = regexp.MustCompile(`--copy-results[ =]"?([^"\s]+)`)

// mergeRE finds `tfbench merge ... DIR/*.json`; group 1 is DIR.
var mergeRE = regexp.MustCompile(`tfbench merge [^\n]*?"?([^"\s]+)/\*\.json`)

// Check holds what the shard manifest (shards: the claim and the Indexed
// Job) and the merge manifest need of each other (docs/shards.md): the
// shard Job has completionMode Indexed, completions N equal to its
// parallelism, and its container runs bench with --shard
// $((JOB_COMPLETION_INDEX+1))/N (the same N) and --copy-results into a
// ReadWriteMany claim of the manifest; the merge Job is not indexed and runs
// `tfbench merge` over that claim's folder of shard files and `tfbench
// report`. Every container has a name and an image, every pod a
// restartPolicy a Job allows (Never, OnFailure) and a volume for each mount.
// Errors name the Job and the rule broken.
func Check(shards, merge *Manifest) error {
	if len(shards.Jobs) != 1 || len(merge.Jobs) != 1 {
		return fmt.Errorf("want one Job in each manifest, have %d shard Jobs and %d merge Jobs", len(shards.Jobs), len(merge.Jobs))
	}
	claims := append(slices.Clone(shards.Claims), merge.Claims...)
	sj, mj := &shards.Jobs[0], &merge.Jobs[0]
	for _, j := range []*batchv1.Job{sj, mj} {
		if err := checkPod(j, claims); err != nil {
			return err
		}
	}

	s := sj.Spec
	switch {
	case s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion:
		return fmt.Errorf("Job %s: completionMode must be Indexed (the index is the shard)", sj.Name)
	case s.Completions == nil || *s.Completions < 1:
		return fmt.Errorf("Job %s: completions must be the shard count N", sj.Name)
	case s.Parallelism == nil || *s.Parallelism != *s.Completions:
		return fmt.Errorf("Job %s: parallelism must equal completions (%d): every shard runs at once, on its own node", sj.Name, *s.Completions)
	}
	script := command(sj)
	m := shardRE.FindStringSubmatch(script)
	if m == nil {
		return fmt.Errorf("Job %s: the container does not run bench with --shard $((JOB_COMPLETION_INDEX+1))/N", sj.Name)
	}
	if n, _ := strconv.Atoi(m[1]); n != int(*s.Completions) {
		return fmt.Errorf("Job %s: --shard …/%d but completions %d: the shard count must be the Job's", sj.Name, n, *s.Completions)
	}
	c := copyRE.FindStringSubmatch(script)
	if c == nil {
		return fmt.Errorf("Job %s: bench has no --copy-results onto the shared claim", sj.Name)
	}
	shardClaim, shardDir, err := onClaim(sj, path.Dir(c[1]), claims)
	if err != nil {
		return fmt.Errorf("Job %s: --copy-results %s: %w", sj.Name, c[1], err)
	}

	if mj.Spec.CompletionMode != nil && *mj.Spec.CompletionMode == batchv1.IndexedCompletion {
		return fmt.Errorf("Job %s: the merge runs once, not indexed", mj.Name)
	}
	script = command(mj)
	g := mergeRE.FindStringSubmatch(script)
	if g == nil || !strings.Contains(script, "tfbench report ") {
		return fmt.Errorf("Job %s: the container does not run tfbench merge over DIR/*.json and tfbench report", mj.Name)
	}
	mergeClaim, mergeDir, err := onClaim(mj, g[1], claims)
	if err != nil {
		return fmt.Errorf("Job %s: merge of %s/*.json: %w", mj.Name, g[1], err)
	}
	if mergeClaim != shardClaim || mergeDir != shardDir {
		return fmt.Errorf("Job %s merges %s on claim %s; Job %s writes the shards to %s on claim %s", mj.Name, mergeDir, mergeClaim, sj.Name, shardDir, shardClaim)
	}
	return nil
}

// checkPod holds what the API server would refuse in j's pod template: a
// container without name or image, a restartPolicy other than Never or
// OnFailure, a mount of no volume, a claim not in claims.
func checkPod(j *batchv1.Job, claims []corev1.PersistentVolumeClaim) error {
	p := j.Spec.Template.Spec
	if p.RestartPolicy != corev1.RestartPolicyNever && p.RestartPolicy != corev1.RestartPolicyOnFailure {
		return fmt.Errorf("Job %s: restartPolicy %q: a Job's pod needs Never or OnFailure", j.Name, p.RestartPolicy)
	}
	if len(p.Containers) != 1 {
		return fmt.Errorf("Job %s: %d containers, want one", j.Name, len(p.Containers))
	}
	for _, c := range append(slices.Clone(p.InitContainers), p.Containers...) {
		if c.Name == "" || c.Image == "" {
			return fmt.Errorf("Job %s: a container needs a name and an image (name %q, image %q)", j.Name, c.Name, c.Image)
		}
		for _, vm := range c.VolumeMounts {
			if !slices.ContainsFunc(p.Volumes, func(v corev1.Volume) bool { return v.Name == vm.Name }) {
				return fmt.Errorf("Job %s: container %s mounts volume %q, which the pod does not have", j.Name, c.Name, vm.Name)
			}
		}
	}
	for _, v := range p.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		if !slices.ContainsFunc(claims, func(c corev1.PersistentVolumeClaim) bool { return c.Name == v.PersistentVolumeClaim.ClaimName }) {
			return fmt.Errorf("Job %s: volume %s claims %q, which the manifests do not define", j.Name, v.Name, v.PersistentVolumeClaim.ClaimName)
		}
	}
	return nil
}

// command is the Job's container's command and args, one string.
func command(j *batchv1.Job) string {
	c := j.Spec.Template.Spec.Containers[0]
	return strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
}

// onClaim maps dir, a folder in j's container, to the claim mounted over it
// and the folder's path inside the claim ("/results/jobs" on a claim
// mounted at /results → "jobs"). The claim must be ReadWriteMany: the
// shards' pods write to it at once from several nodes.
func onClaim(j *batchv1.Job, dir string, claims []corev1.PersistentVolumeClaim) (claim, rel string, err error) {
	p := j.Spec.Template.Spec
	var best corev1.VolumeMount
	for _, vm := range p.Containers[0].VolumeMounts {
		if (dir == vm.MountPath || strings.HasPrefix(dir, strings.TrimSuffix(vm.MountPath, "/")+"/")) && len(vm.MountPath) > len(best.MountPath) {
			best = vm
		}
	}
	if best.Name == "" {
		return "", "", fmt.Errorf("%s is on no mounted volume", dir)
	}
	for _, v := range p.Volumes {
		if v.Name != best.Name {
			continue
		}
		if v.PersistentVolumeClaim == nil {
			return "", "", fmt.Errorf("%s is on volume %s, not a claim shared by the Jobs", dir, v.Name)
		}
		claim = v.PersistentVolumeClaim.ClaimName
	}
	i := slices.IndexFunc(claims, func(c corev1.PersistentVolumeClaim) bool { return c.Name == claim })
	if i < 0 || !slices.Contains(claims[i].Spec.AccessModes, corev1.ReadWriteMany) {
		return "", "", fmt.Errorf("claim %s must be ReadWriteMany: every shard writes to it at once", claim)
	}
	rel = strings.TrimPrefix(strings.TrimPrefix(dir, best.MountPath), "/")
	return claim, path.Clean("/" + best.SubPath + "/" + rel), nil
}
