package profile

import (
	"encoding/json"
	"fmt"
	"path"
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
	sites := map[site]time.Duration{}
	for i, n := range nodes {
		if self[i] == 0 {
			continue
		}
		cf := n.CallFrame
		if cf.FunctionName == "(idle)" {
			f.Idle += self[i]
			continue
		}
		f.Total += self[i]
		name := cf.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		file := cf.URL
		switch {
		case strings.HasPrefix(file, "file://"):
			file = filePath(file)
		case file == "" && !strings.HasPrefix(cf.FunctionName, "("):
			file = "(native)" // V8 builtins and Node's C++ bindings
		}
		line := 0
		if file != "" && cf.LineNumber >= 0 {
			line = cf.LineNumber + 1
		}
		sites[site{name: name, file: file, area: NodeArea(cf.FunctionName, cf.URL), line: line, node: true}] += self[i]
	}
	return &Profile{Files: []File{f}, Samples: samples, Total: f.Total, Idle: f.Idle, Funcs: collect(sites)}, nil
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
