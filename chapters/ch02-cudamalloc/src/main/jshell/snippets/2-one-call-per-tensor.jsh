// 2. One driver call per tensor, against a caching allocator (modelled times)
var direct = new Gpu(gib(80)).openToyProcess();
for (int i = 0; i < 1000; i++) direct.cudaFree(direct.cudaMalloc(mib(1) + i));
direct.driverCalls(DriverCall.CUDA_MALLOC)
CostModel.format(CostModel.ORDER_OF_MAGNITUDE.totalMicros(direct))
var cached = new Gpu(gib(80)).openToyProcess();
var allocator = new CachingAllocator(cached, new ToyPolicy());
for (int i = 0; i < 1000; i++) allocator.free(allocator.alloc(mib(1) + i));
cached.driverCalls(DriverCall.CUDA_MALLOC)
CostModel.format(CostModel.ORDER_OF_MAGNITUDE.totalMicros(cached))
