// 5. Peers: GPU 0 reaches GPU 1's memory only after cudaDeviceEnablePeerAccess
var gpus = Gpu.machine(2, gib(80), mib(512));
var on0 = gpus.get(0).open(7, "ddp", mib(500));
var on1 = gpus.get(1).open(7, "ddp", mib(500));
var ptr = on1.cudaMalloc(mib(4));
on0.translate(ptr)                        // throws: PageFault, nothing mapped on GPU 0
on0.cudaDeviceEnablePeerAccess(on1);
on0.walk(ptr)
on1.translate(ptr)
