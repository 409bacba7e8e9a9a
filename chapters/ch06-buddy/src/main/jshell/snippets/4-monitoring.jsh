// 4. Monitoring a buddy: free blocks per order (buddyinfo) and the unusable index
var b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
var x = b.alloc(mib(1));
var y = b.alloc(mib(1));
b.free(x);
b.buddyinfo()
b.unusableIndex(22)
b.freeCounts()
