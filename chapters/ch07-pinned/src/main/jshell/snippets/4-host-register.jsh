// 4. 100 GB: the caching allocator rounds to a power of two, cudaHostRegister pins the exact size
var cached = new PinnedSim();
cached.pin(100_000_000_000L);
readable(cached.host().pinnedBytes())
var registered = new PinnedSim();
var kv = registered.pinTensor(100_000_000_000L);
readable(registered.host().pinnedBytes())
registered.hostMemoryStats()
