// 2. You don't own the buffer when you think you do: a freed block waits for its copy's event
var sim = new PinnedSim();
var d = sim.cuda(mib(1));
sim.kernel("busy", 20_000_000);
var b = sim.pin(mib(1));
sim.copyToDevice(d, b);
sim.del(b);
sim.allocator().pendingEvents()
sim
PinnedLab.useAfterFree(true)
PinnedLab.useAfterFree(false)
