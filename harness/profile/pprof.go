package profile

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// readPprof reads a pprof profile: a sample's self time is its CPU time
// value (or its count × the period), charged to the innermost function of
// its leaf location.
func readPprof(file string, data []byte, notProfile func(string) error) (*Profile, error) {
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, notProfile(err.Error())
	}
	value, count := -1, -1
	var unit time.Duration
	for i, st := range p.SampleType {
		if u, ok := timeUnits[st.Unit]; ok && (st.Type == "cpu" || st.Type == "wall") && value < 0 {
			value, unit = i, u
		}
		if st.Unit == "count" && (st.Type == "samples" || st.Type == "sample") && count < 0 {
			count = i
		}
	}
	if value < 0 {
		if u, ok := timeUnits[periodUnit(p)]; ok && count >= 0 && p.Period > 0 {
			unit = time.Duration(p.Period) * u
		} else {
			var types []string
			for _, st := range p.SampleType {
				types = append(types, st.Type+"/"+st.Unit)
			}
			return nil, fmt.Errorf("%s: not a CPU profile: pprof sample types %s", file, strings.Join(types, ", "))
		}
	}
	f := File{Format: Pprof, Wall: time.Duration(p.DurationNanos)}
	sites := map[site]time.Duration{}
	var stacks []rawStack
	for _, s := range p.Sample {
		var d time.Duration
		if value >= 0 {
			d = time.Duration(s.Value[value]) * unit
		} else {
			d = time.Duration(s.Value[count]) * unit
		}
		if count >= 0 {
			f.Samples += s.Value[count]
		} else {
			f.Samples++
		}
		if d <= 0 {
			continue
		}
		f.Total += d
		sites[leaf(s)] += d
		var path []site
		for i := len(s.Location) - 1; i >= 0; i-- {
			inner := locSites(s.Location[i])
			for j := len(inner) - 1; j >= 0; j-- {
				path = append(path, inner[j])
			}
		}
		if len(path) == 0 {
			path = []site{leaf(s)}
		}
		stacks = append(stacks, rawStack{sites: path, self: d})
	}
	funcs, st := collect(sites, stacks)
	return &Profile{Files: []File{f}, Samples: f.Samples, Total: f.Total, Funcs: funcs, Stacks: st}, nil
}

// timeUnits are the pprof time units.
var timeUnits = map[string]time.Duration{"nanoseconds": time.Nanosecond, "microseconds": time.Microsecond, "milliseconds": time.Millisecond, "seconds": time.Second}

// leaf is the site a sample's self time goes to: the innermost (inlined)
// function of its first location; an unsymbolized one is named by its
// mapping's file, [libc.so.6], and is C code.
func leaf(s *profile.Sample) site {
	if len(s.Location) == 0 {
		return site{name: "(no location)", area: AreaCgo}
	}
	return locSites(s.Location[0])[0]
}

// locSites are the functions of a location, innermost (inlined) first
// as pprof lists them; an unsymbolized location is one site named by its
// mapping's file (as pprof names it: [libc.so.6]) or its address.
func locSites(loc *profile.Location) []site {
	var out []site
	for _, l := range loc.Line {
		if fn := l.Function; fn != nil && fn.Name != "" {
			out = append(out, site{name: fn.Name, file: fn.Filename, area: GoArea(fn.Name, fn.Filename), line: int(fn.StartLine)})
		} else if len(out) == 0 {
			break // as leaf always read it: the first line names the location
		}
	}
	if len(out) > 0 {
		return out
	}
	name := fmt.Sprintf("0x%x", loc.Address)
	if loc.Mapping != nil && loc.Mapping.File != "" {
		name = "[" + path.Base(loc.Mapping.File) + "]"
	}
	return []site{{name: name, area: AreaCgo}}
}

// periodUnit is the unit of p's period, "" without one.
func periodUnit(p *profile.Profile) string {
	if p.PeriodType == nil {
		return ""
	}
	return p.PeriodType.Unit
}

// goFile is a Go file for display: a dependency's from its module cache
// path on (modernc.org/sqlite@v1.62.0/lib/x.go), the standard library's
// from GOROOT/src on (net/http/server.go), the app's relative to appDir.
func goFile(file, area, appDir string) string {
	if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		file = file[i+len("/pkg/mod/"):]
		if area == AreaGoStd || area == AreaRuntime {
			if j := strings.LastIndex(file, "/src/"); j >= 0 {
				return file[j+len("/src/"):]
			}
		}
		return file
	}
	if area == AreaGoStd || area == AreaRuntime || area == AreaCgo {
		if j := strings.LastIndex(file, "/src/"); j >= 0 && strings.HasPrefix(file, "/") {
			return file[j+len("/src/"):]
		}
		return file
	}
	if area == AreaApp {
		return relTo(file, appDir)
	}
	return file
}
