// 2. Split and merge on one segment: the segment after each call
var sim = new Sim(mib(40));
var a = sim.alloc(mib(4));
a.segment()
var b = sim.alloc(mib(6));
var c = sim.alloc(mib(4));
b.segment()
sim.free(b);
a.segment()
sim.free(a);
c.segment()
sim.free(c);
sim
readable(sim.emptyCache())
