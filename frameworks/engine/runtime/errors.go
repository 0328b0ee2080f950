package runtime

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	v8 "github.com/tommie/v8go"
)

// RenderError is a JavaScript exception from a render (a throw or a
// rejected Promise) or from the bundle's start-up run. The server answers
// 500 and logs Error(), e.g. "Error: boom at app/routes/fortunes.tsx:12:5".
type RenderError struct {
	Route   string // route path, e.g. "/fortunes"; "" at start-up
	Message string // the exception's string form, e.g. "Error: boom"
	// Stack is the JS stack with every bundle.js:L:C position replaced by
	// the source map's file:line:column (unchanged where it has none).
	Stack string
	// File, Line and Column are the top bundle.js frame mapped through
	// Config.SourceMap: the app source file (e.g. "app/routes/fortunes.tsx"),
	// line 1-based, column 1-based. Without a map (or a mapping) they are
	// "bundle.js" and the bundle position; File is "" if the stack has no
	// bundle.js frame.
	File   string
	Line   int
	Column int
}

// Error returns "<message> at <file>:<line>:<column>", or the message alone
// when no position is known.
func (e *RenderError) Error() string {
	if e.File == "" {
		return e.Message
	}
	return fmt.Sprintf("%s at %s:%d:%d", e.Message, e.File, e.Line, e.Column)
}

var bundlePos = regexp.MustCompile(regexp.QuoteMeta(scriptName) + `:(\d+):(\d+)`)

// jsError turns a v8go call error into a *RenderError (a *v8.JSError) or
// returns it unchanged. route -1 means start-up.
func (p *Pool) jsError(route int, err error) error {
	var je *v8.JSError
	if !errors.As(err, &je) {
		return err
	}
	stack := je.StackTrace
	if stack == "" || !bundlePos.MatchString(stack) {
		// Syntax errors carry the position only in Location.
		stack = je.Message + "\n    at " + je.Location
	}
	return p.newRenderError(route, je.Message, stack)
}

// rejection builds the RenderError for a rejected render Promise from the
// rejection value's message and stack (an Error object's "stack").
func (p *Pool) rejection(route int, reason *v8.Value) error {
	msg := reason.String()
	stack := msg
	if reason.IsObject() {
		obj, _ := reason.AsObject()
		if sv, err := obj.Get("stack"); err == nil {
			if sv.IsString() {
				stack = sv.String()
			}
			sv.Release()
		}
	}
	return p.newRenderError(route, msg, stack)
}

func (p *Pool) newRenderError(route int, msg, stack string) *RenderError {
	e := &RenderError{Message: msg}
	if route >= 0 && route < len(p.routes) {
		e.Route = p.routes[route].Path
	}
	var top func(file string, line, col int)
	top = func(file string, line, col int) {
		e.File, e.Line, e.Column = file, line, col
		top = nil
	}
	e.Stack = p.mapStack(stack, func(file string, line, col int) {
		if top != nil {
			top(file, line, col)
		}
	})
	return e
}

// mapStack replaces every bundle.js:L:C position in text with the source
// map's file:line:column; each mapped position is passed to seen (may be
// nil) in order.
func (p *Pool) mapStack(text string, seen func(file string, line, col int)) string {
	return bundlePos.ReplaceAllStringFunc(text, func(m string) string {
		sub := bundlePos.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		file, l, c := p.mapPosition(line, col)
		if seen != nil {
			seen(file, l, c)
		}
		return file + ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c)
	})
}

// mapPosition maps a bundle.js position (V8: line and column 1-based) to
// the original file, line (1-based) and column (1-based). go-sourcemap
// takes and returns 1-based lines and 0-based columns.
func (p *Pool) mapPosition(line, col int) (string, int, int) {
	if p.smap != nil {
		if src, _, l, c, ok := p.smap.Source(line, col-1); ok && src != "" {
			return src, l, c + 1
		}
	}
	return scriptName, line, col
}
