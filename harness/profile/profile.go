// Package profile reads CPU profiles (Node .cpuprofile, Go pprof) and says
// where the time went: sampled time, the top functions by self time and the
// time by area; tfbench profile prints it (docs/profiles.md).
package profile

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Format is a profile file's format.
type Format string

// The formats Read knows.
const (
	Node  Format = "Node .cpuprofile"
	Pprof Format = "pprof"
)

// Profile is the self time of every sampled function of one or more
// profile files (Sum).
type Profile struct {
	// Files are the files read, each with its own figures.
	Files []File
	// Samples is the number of samples; Total the sampled time without
	// Idle, Node's (idle) time (a Go CPU profile has none).
	Samples     int64
	Total, Idle time.Duration
	// Funcs are the functions with self time, largest first.
	Funcs []Func
	// Stacks are the sampled call stacks with their self time (summing to
	// Total), in frame order; the same frames appear once.
	Stacks []Stack
}

// Stack is the self time of one call stack's leaf. Frames are root first,
// each "name (file)" with Func's file without its line, or "name" when
// the file is unknown (Node's "(garbage collector)").
type Stack struct {
	Frames []string
	Self   time.Duration
}

// File is one profile file's figures.
type File struct {
	Path        string
	Format      Format
	Samples     int64
	Wall        time.Duration // from the profile's start to its end
	Total, Idle time.Duration
}

// Func is one function's self time. File is where it is, shortened for
// display (its package's path for a dependency, from the bundle folder for
// a bundle, relative to the app's files otherwise), with its first line.
type Func struct {
	Name, File, Area string
	Self             time.Duration
}

// Read reads one Node .cpuprofile or pprof profile (gzipped or not);
// errors name the file and refuse anything else, a heap profile included.
func Read(file string) (*Profile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	notProfile := func(why string) error {
		return fmt.Errorf("%s: not a Node .cpuprofile or pprof profile: %s", file, why)
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	var p *Profile
	switch {
	case len(trimmed) == 0:
		return nil, notProfile("empty file")
	case trimmed[0] == '{':
		p, err = readNode(data, notProfile)
	default:
		p, err = readPprof(file, data, notProfile)
	}
	if err != nil {
		return nil, err
	}
	p.Files[0].Path = file
	return p, nil
}

// Sum adds profiles up: their files in order, their samples and times,
// and the self time of functions with the same name, file and area.
func Sum(ps ...*Profile) *Profile {
	out := &Profile{}
	type key struct{ name, file, area string }
	self := map[key]time.Duration{}
	for _, p := range ps {
		out.Files = append(out.Files, p.Files...)
		out.Samples += p.Samples
		out.Total += p.Total
		out.Idle += p.Idle
		for _, f := range p.Funcs {
			self[key{f.Name, f.File, f.Area}] += f.Self
		}
	}
	for k, d := range self {
		out.Funcs = append(out.Funcs, Func{Name: k.name, File: k.file, Area: k.area, Self: d})
	}
	sortFuncs(out.Funcs)
	var stacks []Stack
	for _, p := range ps {
		stacks = append(stacks, p.Stacks...)
	}
	out.Stacks = mergeStacks(stacks)
	return out
}

// mergeStacks adds up the stacks with the same frames and sorts them by
// frames.
func mergeStacks(stacks []Stack) []Stack {
	index := map[string]int{}
	var out []Stack
	for _, st := range stacks {
		k := strings.Join(st.Frames, "\x00")
		if i, ok := index[k]; ok {
			out[i].Self += st.Self
			continue
		}
		index[k] = len(out)
		out = append(out, Stack{Frames: st.Frames, Self: st.Self})
	}
	slices.SortFunc(out, func(a, b Stack) int { return slices.Compare(a.Frames, b.Frames) })
	return out
}

// Area is one area's self time.
type Area struct {
	Name string
	Self time.Duration
}

// Areas is p's self time by area, largest first (ties by name).
func (p *Profile) Areas() []Area {
	by := map[string]time.Duration{}
	for _, f := range p.Funcs {
		by[f.Area] += f.Self
	}
	out := make([]Area, 0, len(by))
	for name, d := range by {
		out = append(out, Area{name, d})
	}
	slices.SortFunc(out, func(a, b Area) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(a.Name, b.Name))
	})
	return out
}

func sortFuncs(fs []Func) {
	slices.SortFunc(fs, func(a, b Func) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(a.Name, b.Name), cmp.Compare(a.File, b.File))
	})
}

// site is a function as read, before its file is shortened for display.
type site struct {
	name, file, area string
	line             int  // first line, 1-based; 0 when unknown
	node             bool // a Node script URL (nodeFile), else a Go file (goFile)
}

// short is s's file for display, app files relative to appDir.
func (s site) short(appDir string) string {
	if s.node {
		return nodeFile(s.file, s.area, appDir)
	}
	return goFile(s.file, s.area, appDir)
}

// rawStack is a sampled stack as read, root first, before its files are
// shortened for display.
type rawStack struct {
	sites []site
	self  time.Duration
}

// frame is s as a Stack frame: "name (file)", "name (native)", or "name"
// without a file.
func (s site) frame(appDir string) string {
	file := s.short(appDir)
	switch {
	case file == "":
		return s.name
	case strings.HasPrefix(file, "("):
		return s.name + " " + file
	}
	return s.name + " (" + file + ")"
}

// collect turns self time per site into Funcs and the raw stacks into
// Stacks, shortening the app's files relative to the parent of the folder
// they share (go-stdlib/main.go, engine/server/server.go), so that they
// keep their project's name.
func collect(self map[site]time.Duration, raw []rawStack) ([]Func, []Stack) {
	dir := appDir(self)
	merged := map[Func]time.Duration{}
	for s, d := range self {
		f := Func{Name: s.name, Area: s.area, File: s.short(dir)}
		if f.File != "" && s.line > 0 {
			f.File += fmt.Sprintf(":%d", s.line)
		}
		merged[f] += d
	}
	out := make([]Func, 0, len(merged))
	for f, d := range merged {
		f.Self = d
		out = append(out, f)
	}
	sortFuncs(out)
	stacks := make([]Stack, 0, len(raw))
	for _, r := range raw {
		frames := make([]string, len(r.sites))
		for i, s := range r.sites {
			frames[i] = s.frame(dir)
		}
		stacks = append(stacks, Stack{Frames: frames, Self: r.self})
	}
	return out, mergeStacks(stacks)
}

// appDir is the folder the app's files are shortened relative to: the
// parent of the folder the app's files with self time share ("" for none).
func appDir(self map[site]time.Duration) string {
	var appFiles []string
	for s := range self {
		if s.area == AreaApp && strings.HasPrefix(s.file, "/") && !stagedRE.MatchString(s.file) {
			appFiles = append(appFiles, s.file)
		}
	}
	dir := commonDir(appFiles)
	if dir != "" {
		dir = path.Dir(dir)
	}
	return dir
}

// commonDir is the folder all of files (absolute paths) are in; for one
// file, its folder.
func commonDir(files []string) string {
	if len(files) == 0 {
		return ""
	}
	dir := path.Dir(files[0])
	for _, f := range files[1:] {
		for dir != "/" && !strings.HasPrefix(f, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	return dir
}

// stagedRE matches a file of an adapter tfbench staged for its build
// (WORK/build/NAME/RUNTIME/src/FILE, stage.StageRoot).
var stagedRE = regexp.MustCompile(`/build/([^/]+)/[^/]+/src/(.+)$`)

// relTo is an app file for display: NAME/FILE for a file of a staged
// adapter (stagedRE), file relative to dir when it is inside it, else file.
func relTo(file, dir string) string {
	if m := stagedRE.FindStringSubmatch(file); m != nil {
		return m[1] + "/" + m[2]
	}
	if dir == "" || dir == "/" {
		return file
	}
	if rest, ok := strings.CutPrefix(file, dir+"/"); ok {
		return rest
	}
	return file
}
