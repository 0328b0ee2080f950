package profile

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// cpuProfile is the JSON Node writes with --cpu-prof (V8's
// Profiler.Profile): a call tree, the node of each sample and the µs
// between samples.
type cpuProfile struct {
	Nodes *[]struct {
		ID        int `json:"id"`
		CallFrame struct {
			FunctionName string `json:"functionName"`
			URL          string `json:"url"`
			LineNumber   int    `json:"lineNumber"` // 0-based; -1 unknown
		} `json:"callFrame"`
		HitCount int64 `json:"hitCount"`
		Children []int `json:"children"`
	} `json:"nodes"`
	StartTime  int64   `json:"startTime"` // µs
	EndTime    int64   `json:"endTime"`
	Samples    []int   `json:"samples"`
	TimeDeltas []int64 `json:"timeDeltas"` // µs since the previous sample (the first: since StartTime)
}

// readNode reads a .cpuprofile: a sample's self time runs to the next
// sample or EndTime, as Chrome DevTools counts (hitCount × the mean interval
// without samples); (idle) is Idle, not Total.
func readNode(data []byte, notProfile func(string) error) (*Profile, error) {
	var cp cpuProfile
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, notProfile("JSON: " + err.Error())
	}
	if cp.Nodes == nil || len(*cp.Nodes) == 0 {
		return nil, notProfile(`JSON without a "nodes" list`)
	}
	if len(cp.TimeDeltas) != len(cp.Samples) {
		return nil, notProfile(fmt.Sprintf("%d samples but %d time deltas", len(cp.Samples), len(cp.TimeDeltas)))
	}
	nodes := *cp.Nodes
	index := make(map[int]int, len(nodes))
	for i, n := range nodes {
		index[n.ID] = i
	}
	self := make([]time.Duration, len(nodes))
	var samples int64
	if len(cp.Samples) > 0 {
		ts := make([]int64, len(cp.Samples))
		t := cp.StartTime
		for i, d := range cp.TimeDeltas {
			t += d
			ts[i] = t
		}
		for i, id := range cp.Samples {
			n, ok := index[id]
			if !ok {
				return nil, notProfile(fmt.Sprintf("sample %d is of node %d, which is not in nodes", i, id))
			}
			var d int64
			if i+1 < len(ts) {
				d = ts[i+1] - ts[i]
			} else {
				d = cp.EndTime - ts[i]
			}
			self[n] += time.Duration(max(d, 0)) * time.Microsecond
		}
		samples = int64(len(cp.Samples))
	} else {
		for _, n := range nodes {
			samples += n.HitCount
		}
		if samples > 0 {
			interval := time.Duration(cp.EndTime-cp.StartTime) * time.Microsecond / time.Duration(samples)
			for i, n := range nodes {
				self[i] = time.Duration(n.HitCount) * interval
			}
		}
	}
	f := File{Format: Node, Samples: samples, Wall: time.Duration(cp.EndTime-cp.StartTime) * time.Microsecond}
	parent := make([]int, len(nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range nodes {
		for _, c := range n.Children {
			if j, ok := index[c]; ok {
				parent[j] = i
			}
		}
	}
	sites := make([]site, len(nodes))
	for i, n := range nodes {
		sites[i] = nodeSite(n.CallFrame.FunctionName, n.CallFrame.URL, n.CallFrame.LineNumber)
	}
	bySite := map[site]time.Duration{}
	var stacks []rawStack
	for i, n := range nodes {
		if self[i] == 0 {
			continue
		}
		if n.CallFrame.FunctionName == "(idle)" {
			f.Idle += self[i]
			continue
		}
		f.Total += self[i]
		bySite[sites[i]] += self[i]
		var path []site
		for j, depth := i, 0; j >= 0 && depth <= len(nodes); j, depth = parent[j], depth+1 {
			if parent[j] < 0 && nodes[j].CallFrame.FunctionName == "(root)" {
				break
			}
			path = append(path, sites[j])
		}
		slices.Reverse(path)
		stacks = append(stacks, rawStack{sites: path, self: self[i]})
	}
	funcs, st := collect(bySite, stacks)
	return &Profile{Files: []File{f}, Samples: samples, Total: f.Total, Idle: f.Idle, Funcs: funcs, Stacks: st}, nil
}

// nodeSite is a Node call frame's site: "(anonymous)" for a function
// without a name, "(native)" for a builtin's file, lineNumber 0-based.
func nodeSite(fn, url string, lineNumber int) site {
	name := fn
	if name == "" {
		name = "(anonymous)"
	}
	file := url
	switch {
	case strings.HasPrefix(file, "file://"):
		file = filePath(file)
	case file == "" && !strings.HasPrefix(fn, "("):
		file = "(native)" // V8 builtins and Node's C++ bindings
	}
	line := 0
	if file != "" && lineNumber >= 0 {
		line = lineNumber + 1
	}
	return site{name: name, file: file, area: NodeArea(fn, url), line: line, node: true}
}

// nodeFile is a Node script's path for display: a package's file from the
// package on, a bundle's from its bundle folder, the app's relative to
// appDir, node: URLs as they are.
func nodeFile(file, area, appDir string) string {
	if file == "" || strings.HasPrefix(file, "node:") {
		return file
	}
	if i := strings.LastIndex(file, "/node_modules/"); i >= 0 {
		return file[i+len("/node_modules/"):]
	}
	if b := bundleFile(strings.Split(file, "/")); b != "" {
		return b
	}
	if area == AreaApp {
		return relTo(file, appDir)
	}
	return path.Clean(file)
}
