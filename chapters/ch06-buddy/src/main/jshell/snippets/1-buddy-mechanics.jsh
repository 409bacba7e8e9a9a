// 1. Buddy mechanics: split on alloc, merge on free, on a 16 MiB pool of 1 MiB minimum blocks
var b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
b.map()
var x = b.alloc(mib(3));
b.map()
var y = b.alloc(mib(1));
var z = b.alloc(mib(2));
b.map()
b.buddyinfo()
b.free(x);
b.map()
b.free(y); b.free(z);
b.map()
