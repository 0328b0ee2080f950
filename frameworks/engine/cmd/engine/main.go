// Command engine is the render engine's server: it bundles the
// app's TSX routes with esbuild, starts the V8 isolate pool, and serves
// HTTP until SIGTERM or SIGINT, then shuts down gracefully.
//
// Environment (the tfbench harness sets PORT and DATABASE_PATH; docs/adapters.md,
// Adding a framework):
//
//	PORT           required, TCP port 1..65535
//	HOST           listen address, default 127.0.0.1
//	DATABASE_PATH  required, the SQLite dataset; must exist
//	ENGINE_MODE    pool (default: one isolate per CPU of the process's CPU
//	               set) or serialized (one isolate, one render at a time)
//	ENGINE_APP     the app directory holding routes/, default "app"
//	               (relative to the working directory)
//	ENGINE_JSX     compiled (default: elements with a literal tag become
//	               string concatenation at bundle time) or runtime (every
//	               element a jsx() call; the A/B variant jsx-runtime)
//	ENGINE_ADMISSION  cost (default: a free isolate goes to the waiting
//	               render of least expected cost, within the oldest
//	               waiter's credit) or arrival (arrival order; the A/B
//	               variant arrival)
//	ENGINE_RENDER_TIMEOUT  the longest a render may run before its
//	               JavaScript is terminated and the request answered 500,
//	               a Go duration, default 10s
//	TFBENCH_CPU_PROFILE  write a pprof CPU profile there until shutdown
//	               (tfbench bench --profile, docs/profiles.md)
//	TFBENCH_EVENTLOOP_DIR  answer tfbench's memory and GC monitor on
//	               <dir>/<pid>.sock (package memstat, docs/adapters.md)
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	"github.com/tfbench/tfbench/frameworks/engine/memstat"
	"github.com/tfbench/tfbench/frameworks/engine/runtime"
	"github.com/tfbench/tfbench/frameworks/engine/server"
)

// shutdownTimeout bounds the graceful shutdown: in-flight requests get 4 s,
// under the harness's 5 s between SIGTERM and SIGKILL.
const shutdownTimeout = 4 * time.Second

func main() {
	logger := log.New(os.Stderr, "", log.LstdFlags)
	if err := run(logger); err != nil {
		logger.Fatalf("engine: %v", err)
	}
}

// config is the server's environment, parsed and checked.
type config struct {
	addr   string       // HOST:PORT
	dbPath string       // DATABASE_PATH
	mode   runtime.Mode // ENGINE_MODE
	appDir string       // ENGINE_APP
	// renderTimeout is ENGINE_RENDER_TIMEOUT, runtime.DefaultRenderTimeout
	// when unset.
	renderTimeout time.Duration
	runtimeJSX    bool // ENGINE_JSX=runtime
	// admission is ENGINE_ADMISSION, runtime.AdmissionCost when unset.
	admission runtime.Admission
}

// loadConfig reads the environment through getenv. Errors name the
// variable: PORT or DATABASE_PATH unset, PORT not a number in 1..65535,
// DATABASE_PATH not an existing file, ENGINE_MODE neither pool nor
// serialized, ENGINE_RENDER_TIMEOUT not a positive duration, ENGINE_JSX
// neither compiled nor runtime, ENGINE_ADMISSION neither cost nor arrival.
func loadConfig(getenv func(string) string) (config, error) {
	port := getenv("PORT")
	if port == "" {
		return config{}, errors.New("PORT is not set (the TCP port to listen on)")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return config{}, fmt.Errorf("PORT=%q: want a TCP port 1..65535", port)
	}
	host := getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	db := getenv("DATABASE_PATH")
	if db == "" {
		return config{}, errors.New("DATABASE_PATH is not set (the SQLite dataset)")
	}
	if fi, err := os.Stat(db); err != nil {
		return config{}, fmt.Errorf("DATABASE_PATH=%q: %w", db, err)
	} else if !fi.Mode().IsRegular() {
		return config{}, fmt.Errorf("DATABASE_PATH=%q: not a regular file", db)
	}
	mode, err := either(getenv, "ENGINE_MODE", runtime.ModePool, runtime.ModeSerialized)
	if err != nil {
		return config{}, err
	}
	app := getenv("ENGINE_APP")
	if app == "" {
		app = "app"
	}
	timeout := runtime.DefaultRenderTimeout
	if v := getenv("ENGINE_RENDER_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return config{}, fmt.Errorf("ENGINE_RENDER_TIMEOUT=%q: want a positive Go duration such as 10s", v)
		}
		timeout = d
	}
	var runtimeJSX bool
	switch v := getenv("ENGINE_JSX"); v {
	case "", "compiled":
	case "runtime":
		runtimeJSX = true
	default:
		return config{}, fmt.Errorf("ENGINE_JSX=%q: want \"compiled\" or \"runtime\"", v)
	}
	adm, err := either(getenv, "ENGINE_ADMISSION", runtime.AdmissionCost, runtime.AdmissionArrival)
	if err != nil {
		return config{}, err
	}
	return config{addr: net.JoinHostPort(host, port), dbPath: db, mode: mode, appDir: app, renderTimeout: timeout, runtimeJSX: runtimeJSX, admission: adm}, nil
}

// either reads the variable name through getenv: def when unset, def or
// other as set, else the error "NAME=%q: want %q or %q".
func either[T ~string](getenv func(string) string, name string, def, other T) (T, error) {
	switch v := T(getenv(name)); v {
	case "":
		return def, nil
	case def, other:
		return v, nil
	default:
		return "", fmt.Errorf("%s=%q: want %q or %q", name, v, def, other)
	}
}

// run bundles, starts the pool and serves until a signal or a serve error.
func run(logger *log.Logger) error {
	cfg, err := loadConfig(os.Getenv)
	if err != nil {
		return err
	}
	if path := os.Getenv("TFBENCH_CPU_PROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			// Stay deaf to a second SIGTERM until the profile is written.
			signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	b, err := bundle.BuildWith(cfg.appDir, bundle.Options{RuntimeJSX: cfg.runtimeJSX})
	if err != nil {
		return fmt.Errorf("ENGINE_APP=%q: %w", cfg.appDir, err)
	}
	pool, err := runtime.New(runtime.Config{
		Script:        b.Script,
		SourceMap:     b.SourceMap,
		DatabasePath:  cfg.dbPath,
		Mode:          cfg.mode,
		RenderTimeout: cfg.renderTimeout,
		Admission:     cfg.admission,
		Log:           logger,
	})
	if err != nil {
		return err
	}
	defer func() {
		if err := pool.Close(); err != nil {
			logger.Printf("engine: close pool: %v", err)
		}
	}()
	if dir := os.Getenv(memstat.EnvDir); dir != "" {
		// Before the listener: the harness asks once the server is ready;
		// closed before the pool (defers run last first).
		if m, err := memstat.Serve(dir, pool.UsedHeap); err == nil {
			defer m.Close()
		} else {
			logger.Printf("engine: memory monitor: %v", err)
		}
	}
	srv, err := server.New(server.Config{Renderer: poolRenderer{pool}, Busy: runtime.ErrBusy, Log: logger})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on HOST:PORT %s: %w", cfg.addr, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	jsx := "compiled"
	if cfg.runtimeJSX {
		jsx = "runtime"
	}
	logger.Printf("engine: listening on http://%s (mode %s, %d isolates, admission %s, %d routes, JSX %s)", cfg.addr, cfg.mode, pool.Isolates(), cfg.admission, len(pool.Routes()), jsx)

	select {
	case err := <-served:
		return fmt.Errorf("serve %s: %w", cfg.addr, err)
	case <-ctx.Done():
	}
	logger.Printf("engine: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// poolRenderer adapts the runtime's Pool to server.Renderer. The server's
// Request and Response have the runtime's fields, so the pointers convert
// without copying.
type poolRenderer struct{ p *runtime.Pool }

// Routes converts the pool's routes.
func (r poolRenderer) Routes() []server.Route {
	rs := r.p.Routes()
	out := make([]server.Route, len(rs))
	for i, rt := range rs {
		out[i] = server.Route(rt)
	}
	return out
}

// Render renders route i in a free isolate.
func (r poolRenderer) Render(ctx context.Context, i int, req *server.Request) (*server.Response, error) {
	resp, err := r.p.Render(ctx, i, (*runtime.Request)(req))
	return (*server.Response)(resp), err
}

// Renders is the pool's render count per route index.
func (r poolRenderer) Renders() []uint64 { return r.p.Renders() }
