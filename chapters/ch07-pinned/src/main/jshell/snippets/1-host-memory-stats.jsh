// 1. host_memory_stats: deleting a pinned tensor does not unpin it; empty_host_cache does
var sim = new PinnedSim();
var t = sim.pin(mib(256));
sim.report("after alloc")
sim.del(t); sim.synchronize();
sim.report("after del")
readable(sim.emptyHostCache())
sim.report("after empty_cache")
