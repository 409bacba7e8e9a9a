// 3. A CUDA graph bakes in its host address: the captured block is never handed out again
var sim = new PinnedSim();
var loss = sim.cuda(kib(4));
var staging = new HostBlock[1];
var g = sim.capture(() -> { staging[0] = sim.pin(kib(4)); sim.copyToHost(staging[0], loss); });
sim.del(staging[0]);
sim.replay(g);
var other = sim.pin(kib(4));
other == staging[0]
sim
