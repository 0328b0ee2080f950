package agent

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tfbench/tfbench/harness/serverhost"
)

// Network measures the path to the server host over TCP to a listener of
// the agent's: the median connect time of rttDials connections, then the
// bytes/s that linkConns connections read from it over linkWindow.
func (c *Client) Network(ctx context.Context) (*serverhost.Network, error) {
	var l linkResult
	if err := c.call(ctx, "link", struct{}{}, &l, nil); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(c.t.Addr, strconv.Itoa(l.Port))
	var rtts []float64
	d := net.Dialer{Timeout: 5 * time.Second}
	for range rttDials {
		start := time.Now()
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("connect to %s: %w", addr, err)
		}
		rtts = append(rtts, float64(time.Since(start).Microseconds())/1000)
		conn.Close()
	}
	slices.Sort(rtts)
	bps, err := linkRate(ctx, addr)
	if err != nil {
		return nil, err
	}
	return &serverhost.Network{Transport: c.t.Name, Address: c.t.Addr, RTT: rtts[len(rtts)/2], LinkBytes: bps}, nil
}

const (
	rttDials   = 11
	linkConns  = 4
	linkWindow = time.Second
)

// linkRate reads from linkConns connections to addr for linkWindow and
// returns the bytes/s they got together.
func linkRate(ctx context.Context, addr string) (float64, error) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	var firstErr error
	start := time.Now()
	deadline := start.Add(linkWindow)
	for range linkConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", addr)
			if err != nil {
				mu.Lock()
				firstErr = cmpErr(firstErr, err)
				mu.Unlock()
				return
			}
			defer conn.Close()
			conn.SetReadDeadline(deadline)
			buf := make([]byte, 256<<10)
			var n int64
			for {
				k, err := conn.Read(buf)
				n += int64(k)
				if err != nil {
					break
				}
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return 0, fmt.Errorf("link test to %s: %w", addr, firstErr)
	}
	return float64(total) / time.Since(start).Seconds(), nil
}

// linkListen opens (once) the listener the controller measures the link
// with: every connection it accepts gets zeros until it closes.
func (a *agent) linkListen() (linkResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.link == nil {
		ln, err := net.Listen("tcp", ":0")
		if err != nil {
			return linkResult{}, err
		}
		a.link = ln
		go func() {
			zeros := make([]byte, 64<<10)
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					c.SetDeadline(time.Now().Add(linkServe))
					for {
						if _, err := c.Write(zeros); err != nil {
							return
						}
					}
				}()
			}
		}()
	}
	return linkResult{Port: a.link.Addr().(*net.TCPAddr).Port}, nil
}

// linkServe bounds one link-test connection on the agent.
const linkServe = 30 * time.Second
