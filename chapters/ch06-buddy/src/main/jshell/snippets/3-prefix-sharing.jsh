// 3. Paged blocks can share: two requests with the same prompt hold its blocks once
var m = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 64, 16, kib(64)));
var prompt = new ArrayList<Integer>();
for (int t = 0; t < 64; t++) prompt.add(t);
m.allocatePrompt("a", prompt)
m.allocatePrompt("b", prompt)
m.blocksInUse()
m.prefixHitTokens()
m.map()
