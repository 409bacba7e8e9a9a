// 1. Fragmentation: 16 MiB free in 4 MiB holes, and an 8 MiB request still fails
var sim = new Sim(mib(40));
var fours = new ArrayList<Block>();
for (int i = 0; i < 4; i++) { fours.add(sim.alloc(mib(3) + 1)); sim.alloc(mib(5) + 1); }
sim.counters()
fours.forEach(sim::free);
sim
readable(sim.freeBytes())
readable(sim.largestFreeBlock())
sim.alloc(mib(8))                         // throws: CudaOutOfMemoryError, with free >= request
sim.alloc(mib(3) + 1)
readable(sim.emptyCache())
