package runtime

// UsedHeap is the used V8 heap summed over the isolates, in bytes
// (v8::HeapStatistics::used_heap_size: live objects and garbage not yet
// collected; V8 keeps no count of bytes allocated). v8go reads it without a
// lock, so it borrows every isolate in turn as Retained does, waiting for
// in-flight renders; 0 once the pool is closed.
func (p *Pool) UsedHeap() int64 {
	if p.closed.Load() {
		return 0
	}
	held := make([]*slot, 0, len(p.slots))
	var total int64
	for range p.slots {
		s := p.take()
		held = append(held, s)
		total += int64(s.iso.GetHeapStatistics().UsedHeapSize)
	}
	for _, s := range held {
		p.release(s)
	}
	return total
}
